/** work.post's data refuses a NUL (or any control character) in its text and the year 0000 (issue 11, item 12). */
import t from 'tap';
import { MIN_YEAR, workInput } from '../../src/works/schema.js';
import { paramHint } from '../../src/api/params.js';

const WORK = { identifier: 'W-1', title: 'A Song', owners: { writer: [{ name: 'Ada', perf_ownership_share: 5000 }] } };
const hint = (data: Record<string, unknown>) => {
  const r = workInput.safeParse(data);
  return r.success ? 'accepted' : paramHint(r.error, data);
};

t.test('control and hidden characters', async (t) => {
  t.equal(hint(WORK), 'accepted');
  t.equal(hint({ ...WORK, identifier: 'W-\u00001' }), 'identifier must not hold control characters: it holds U+0000 (NUL)');
  t.equal(hint({ ...WORK, identifier: 'W-1\u0000' }), 'identifier must not hold control characters: it holds U+0000 (NUL)');
  t.equal(hint({ ...WORK, identifier: 'W-\uFEFF1' }), 'identifier must be printable text: it holds U+FEFF (a byte-order mark); send it without hidden characters');
  t.equal(hint({ ...WORK, identifier: 'W\n1' }), 'identifier must not hold control characters: it holds U+000A (a line feed)');
  t.equal(hint({ ...WORK, title: 'A\u0000Song' }), 'title must not hold control characters: it holds U+0000 (NUL)');
  t.equal(hint({ ...WORK, owners: { writer: [{ name: 'Ada\u0007', perf_ownership_share: 5000 }] } }), 'owners.writer[0].name must not hold control characters: it holds U+0007 (an invisible or control character)');
  t.equal(workInput.parse({ ...WORK, identifier: ' W-1\n' }).identifier, 'W-1', 'white space around the identifier is still trimmed');
  t.equal(hint({ ...WORK, title: 'Café — “Live”' }), 'accepted', 'any printable text is fine');
});

t.test('dates from the year 1000', async (t) => {
  t.equal(MIN_YEAR, 1000);
  for (const field of ['validity_begin', 'transmission_date']) {
    t.equal(hint({ ...WORK, [field]: '0000-01-01' }), `${field} must be a date from the year 1000 on, not 0000 (leave the field out when there is no date)`);
    t.equal(hint({ ...WORK, [field]: '0999-12-31' }), `${field} must be a date from the year 1000 on, not 0999 (leave the field out when there is no date)`);
    t.equal(hint({ ...WORK, [field]: '1000-01-01' }), 'accepted');
  }
  t.equal(hint({ ...WORK, validity_begin: '0000-00-00' }), 'validity_begin must be a date as YYYY-MM-DD');
  t.equal(hint({ ...WORK, collection: { validity_begin: '0000-01-01', territories: [{ code: 'IT', perf_share: 5000 }] } }), 'collection.validity_begin must be a date from the year 1000 on, not 0000 (leave the field out when there is no date)');
});
