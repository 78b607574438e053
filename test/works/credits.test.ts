/** What linked works add to a track's writer_list and publisher_list. */
import t from 'tap';
import { creditLists, writerNames, type WorkCredits } from '../../src/works/credits.js';

const works: WorkCredits[] = [
  { work_id: 1, writers: [{ name: 'Ada Writer', ipi: '123456789', role: 'CA' }, { name: 'Bo Lyricist', ipi: '', role: 'A' }], publishers: [{ name: 'Pub One', ipi: '', role: 'E' }] },
  { work_id: 2, writers: [{ name: 'A. Writer', ipi: '123456789', role: 'C' }, { name: 'bo lyricist', ipi: '', role: '' }], publishers: [{ name: 'Pub Two', ipi: '', role: 'SE' }] },
];

t.test('linked credits are appended once per party', async (t) => {
  const lists = creditLists(works, { writer_list: [{ writer: { writer_name: 'Imported Writer' } }], publisher_list: ['Pub One'] });
  t.same(lists.writer_list, [
    { writer: { writer_name: 'Imported Writer' } },
    { writer: { writer_name: 'Ada Writer', writer_ipi: '123456789', writer_role: 'CA', work_id: 1 } },
    { writer: { writer_name: 'Bo Lyricist', writer_ipi: '', writer_role: 'A', work_id: 1 } },
  ], 'the same IPI, or the same name in any case, is one party');
  t.same(lists.publisher_list, ['Pub One', { publisher: { publisher_name: 'Pub Two', publisher_ipi: '', publisher_role: 'SE', work_id: 2 } }], 'an imported entry is kept and not repeated');
  t.same(writerNames(works), ['Ada Writer', 'Bo Lyricist', 'A. Writer', 'bo lyricist'], 'every name feeds the index');
});
