/**
 * The works store on a real LMDB catalog: a submission is one transaction (a failure part-way
 * leaves the previous work, its links and its submissions as they were), and the credits kept
 * per ISRC follow the works that name it.
 */
import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { workInput } from '../../src/works/schema.js';
import { WorkStore } from '../../src/works/store.js';
import { tempDir, writeJsonl } from '../helpers/tmp.js';

const track = { type: 'track', track_id: 1, track_name: 'Song', artist_id: 1, artist_name: 'Artist', track_isrc: 'GBAAA2000001' };
const input = (title: string, writer: string, isrc = ['GBAAA2000001']) =>
  workInput.parse({ identifier: 'W-1', title, isrc, owners: { writer: [{ name: writer, perf_ownership_share: 5000 }] } });

async function open(t: Test) {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  await importFiles(catalog, [writeJsonl(dir, 'c.jsonl', [track])]);
  t.teardown(() => catalog.close());
  return { catalog, store: new WorkStore(catalog) };
}

t.test('a failed submission changes nothing', async (t) => {
  const { catalog, store } = await open(t);
  const first = await store.submit({ id: 'k_a', name: 'A' }, input('Song', 'First Writer'), Date.UTC(2024, 0, 1));
  t.same(first.tracks, [1], 'the linked track is logged');
  const seq = catalog.lastChange();

  // Fail after the work, its links and its submission were written, before the commit.
  const idsOf = catalog.idsOf.bind(catalog);
  catalog.idsOf = () => {
    throw new Error('crash');
  };
  await t.rejects(store.submit({ id: 'k_a', name: 'A' }, input('Renamed', 'Second Writer', []), Date.UTC(2024, 0, 2)), /crash/);
  catalog.idsOf = idsOf;

  const work = store.find('k_a', 'W-1')!;
  t.equal(work.title, 'Song', 'the old work');
  t.same(work.owners.writer.map((o) => o.name), ['First Writer']);
  t.equal(store.submissionsOf(work.work_id).length, 1, 'no second submission');
  t.same(store.creditsFor('GBAAA2000001')?.map((c) => c.writers[0].name), ['First Writer'], 'the ISRC link as it was');
  t.equal(catalog.lastChange(), seq, 'no change-log entry');
});

t.test('credits per ISRC follow the works naming it', async (t) => {
  const { store } = await open(t);
  const a = (await store.submit({ id: 'k_a', name: 'A' }, input('Song', 'Writer A'), 0)).work;
  const b = (await store.submit({ id: 'k_b', name: 'B' }, input('Song', 'Writer B'), 0)).work;
  t.same(store.creditsFor('GBAAA2000001')?.map((c) => [c.work_id, c.writers[0].name]), [[a.work_id, 'Writer A'], [b.work_id, 'Writer B']], 'two sources, two works');
  const same = await store.submit({ id: 'k_a', name: 'A' }, input('Song', 'Writer A'), 1);
  t.same(same.tracks, [], 'a resubmission that changes no credits logs no track');
  await store.submit({ id: 'k_a', name: 'A' }, input('Song', 'Writer A', ['GBAAA2000002']), 2);
  t.same(store.creditsFor('GBAAA2000001')?.map((c) => c.work_id), [b.work_id], 'a dropped ISRC unlinks');
  t.same(store.creditsFor('GBAAA2000002')?.map((c) => c.work_id), [a.work_id]);
  await store.submit({ id: 'k_b', name: 'B' }, input('Song', 'Writer B', []), 3);
  t.equal(store.creditsFor('GBAAA2000001'), undefined, 'no work left: no entry');
  t.equal(store.creditsFor(''), undefined, 'a track without ISRC has none');
});
