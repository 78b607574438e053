/** Collections over time: added or replaced by validity_begin, each ending the day before the next begins. */
import t from 'tap';
import { dayBefore, withCollection } from '../../src/works/history.js';

const territories = (code: string) => [{ code, mech_share: 100, perf_share: 0, sync_share: 0, publisher: null }];

t.test('the day before', async (t) => {
  t.equal(dayBefore('2022-07-01'), '2022-06-30');
  t.equal(dayBefore('2024-03-01'), '2024-02-29', 'leap year');
  t.equal(dayBefore('2023-03-01'), '2023-02-28');
  t.equal(dayBefore('2021-01-01'), '2020-12-31');
});

t.test('collections by validity date', async (t) => {
  const one = withCollection([], { validity_begin: '2020-01-01', territories: territories('IT') });
  t.same(one, [{ validity_begin: '2020-01-01', validity_end: null, territories: territories('IT') }]);
  const two = withCollection(one, { validity_begin: '2022-07-01', territories: territories('FR') });
  t.same(two.map((c) => [c.validity_begin, c.validity_end]), [['2020-01-01', '2022-06-30'], ['2022-07-01', null]]);
  const three = withCollection(two, { validity_begin: '2019-05-10', territories: territories('DE') });
  t.same(three.map((c) => [c.validity_begin, c.validity_end]), [['2019-05-10', '2019-12-31'], ['2020-01-01', '2022-06-30'], ['2022-07-01', null]], 'an earlier one goes first');
  const replaced = withCollection(three, { validity_begin: '2020-01-01', territories: territories('ES') });
  t.equal(replaced.length, 3, 'the same date replaces');
  t.same(replaced[1].territories, territories('ES'));
  t.same(two.map((c) => c.validity_end), ['2022-06-30', null], 'the input is not changed');
});
