/** Share totals: ownership per right type over writers and publishers; collection per country and right type. */
import t from 'tap';
import { collectionIssue, ownershipIssue, ownershipTotals } from '../../src/works/shares.js';

const owner = (mech: number, perf: number, sync: number) => ({ mech_ownership_share: mech, perf_ownership_share: perf, sync_ownership_share: sync });
const territory = (code: string, mech = 0, perf = 0, sync = 0) => ({ code, mech_share: mech, perf_share: perf, sync_share: sync });

t.test('ownership totals', async (t) => {
  const owners = { writer: [owner(2500, 5000, 0), owner(2500, 0, 0)], publisher: [owner(5000, 5000, 10000)] };
  t.same(ownershipTotals(owners), { mech: { writers: 5000, publishers: 5000 }, perf: { writers: 5000, publishers: 5000 }, sync: { writers: 0, publishers: 10000 } });
  t.equal(ownershipIssue(owners), undefined, 'exactly 10000 is fine');
  t.equal(ownershipIssue({ writer: [], publisher: [] }), undefined, 'no owners is fine');
  t.same(ownershipIssue({ writer: [owner(0, 6000, 0)], publisher: [owner(0, 4001, 0)] }), {
    path: ['owners'],
    message: 'perf_ownership_share adds up to 10001 (writers 6000, publishers 4001); at most 10000 (hundredths of a percent)',
  });
  t.match(ownershipIssue({ writer: [owner(10000, 0, 10000), owner(1, 0, 1)], publisher: [] })?.message, /^mech_ownership_share/, 'the first right type over is named');
});

t.test('collection totals per country', async (t) => {
  t.equal(collectionIssue([territory('XW', 10000, 10000, 10000)]), undefined);
  t.equal(collectionIssue([territory('IT', 5000), territory('FR', 5000), territory('150', 5000)]), undefined, 'Italy and France get 10000 each');
  t.same(collectionIssue([territory('XW', 6000), territory('IT', 5000)]), {
    path: ['collection', 'territories', 1, 'mech_share'],
    message: 'brings the mech share collected in IT to 11000; at most 10000 (hundredths of a percent) per country',
  }, 'a country counts every territory that covers it');
  t.same(collectionIssue([territory('IT', 0, 0, 6000), territory('it', 0, 0, 4001)])?.path, ['collection', 'territories', 1, 'sync_share'], 'the same country twice');
  t.same(collectionIssue([territory('155', 0, 9000), territory('150', 0, 1001)])?.message,
    'brings the perf share collected in AT to 10001; at most 10000 (hundredths of a percent) per country', 'the first country over, in order');
  t.equal(collectionIssue([territory('ZZ', 10000), territory('ZZ', 10000)]), undefined, 'unknown codes are left to the schema');
});
