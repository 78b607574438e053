import t from 'tap';
import { Appender, isAbove } from '../../src/catalog/append.js';
import { Catalog, STRUCTURES_KEY } from '../../src/catalog/store.js';
import { applyRecords } from '../helpers/apply.js';
import { catalogOfFormat, generatedRecords, storedContents } from '../helpers/generated-catalog.js';
import { tempDir } from '../helpers/tmp.js';

t.test('isAbove orders numbers and arrays of numbers as LMDB stores them, and nothing else', async (t) => {
  t.equal(isAbove(2, 1), true);
  t.equal(isAbove(1, 1), false);
  t.equal(isAbove(1, 2), false);
  t.equal(isAbove([3, 1], [2, 9]), true);
  t.equal(isAbove([2, 10], [2, 9]), true);
  t.equal(isAbove([2, 9], [2, 9]), false);
  t.equal(isAbove([2, 8], [2, 9]), false);
  t.equal(isAbove([2, 9, 1], [2, 9]), true, 'a longer key after its prefix');
  t.equal(isAbove([2, 9], [2, 9, 1]), false);
  t.equal(isAbove(['b', 1], ['a', 1]), false, 'strings: left to an ordinary put');
  t.equal(isAbove([1, 'b'], [1, 'a']), false);
  t.equal(isAbove(3, [2]), false);
});

t.test('a key opens a group at the end only when its first component is above every key the database holds', async (t) => {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  const db = catalog.index.commontrack;
  catalog.writeTransaction(() => {
    const appender = new Appender();
    t.equal(appender.opensGroup(db, [5, 5]), true, 'an empty database');
    appender.put(db, [5, 5], '');
    t.equal(appender.opensGroup(db, [5, 9]), false, 'a second key of the same group');
    t.equal(appender.opensGroup(db, [4, 9]), false, 'below the last key');
    t.equal(appender.opensGroup(db, [900, 6]), true);
    appender.put(db, [900, 6], '');
    appender.put(db, [7, 7], '');
    t.equal(appender.opensGroup(db, [900, 8]), false, 'a key put below the last one does not hide the group above it');
  });
  catalog.writeTransaction(() => {
    const appender = new Appender();
    t.equal(appender.opensGroup(db, [900, 10]), false, 'a new transaction reads the last key again');
    t.equal(appender.opensGroup(db, [901, 1]), true);
  });
});

t.test('a version written after its recording, in id order or not, shares the group\'s ISRCs', async (t) => {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  const track = (id: number, commontrack: number) => ({
    type: 'track', track_id: id, commontrack_id: commontrack, track_name: `T${id}`, artist_id: 1, artist_name: 'A', track_isrc: `USAAA26${String(id).padStart(5, '0')}`,
  });
  applyRecords(catalog, [track(5, 900), track(6, 900), track(7, 800)]);
  applyRecords(catalog, [track(8, 800), track(9, 901)]);
  t.same(catalog.getTrack(5)?.commontrack_isrcs, ['USAAA2600005', 'USAAA2600006'], 'a group above its tracks\' ids');
  t.same(catalog.getTrack(7)?.commontrack_isrcs, ['USAAA2600007', 'USAAA2600008'], 'a later transaction, below the last group');
  t.same(catalog.getTrack(9)?.commontrack_isrcs, ['USAAA2600009'], 'alone in a new group');
});

/** Applies records in batches of `size` (an import's transactions). */
function applyInBatches(catalog: Catalog, records: object[], size: number): void {
  for (let i = 0; i < records.length; i += size) applyRecords(catalog, records.slice(i, i + size));
}

t.test('a catalog imported in id order (appends) holds exactly what one imported in another order holds', async (t) => {
  const records = generatedRecords();
  // Artists and albums first (a track names them), tracks in reverse: no new key is above the last.
  const reversed = [...records.filter((r) => r.type !== 'track'), ...records.filter((r) => r.type === 'track').reverse()];
  const inOrder = Catalog.open(tempDir(t));
  const otherOrder = Catalog.open(tempDir(t));
  t.teardown(() => Promise.all([inOrder.close(), otherOrder.close()]));
  applyInBatches(inOrder, records, 37);
  applyInBatches(otherOrder, reversed, 37);
  t.ok(inOrder.trackCount() > 250, 'the generated tracks');
  t.same(storedContents(inOrder), storedContents(otherOrder));
  // Appended, the pages are full: fewer of them.
  const leaves = (c: Catalog) => (c.tracks.getStats() as { treeLeafPageCount: number }).treeLeafPageCount;
  t.ok(leaves(inOrder) < 0.8 * leaves(otherOrder), `track pages: ${leaves(inOrder)} in id order, ${leaves(otherOrder)} in reverse`);
  // Updates and new tracks below the last id after that: ordinary puts, nothing lost.
  const tracks = records.filter((r) => r.type === 'track') as unknown as { track_id: number; track_name: string }[];
  applyRecords(inOrder, [{ ...tracks[3], track_name: 'Renamed' }, ...tracks.slice(-2)]);
  t.equal(inOrder.getTrack(tracks[3].track_id)?.track_name, 'Renamed');
  t.equal(inOrder.trackCount(), otherOrder.trackCount());
});

t.test('a format-1 catalog keeps its shared structures at the top key, and imports lose nothing', async (t) => {
  const catalog = await catalogOfFormat(tempDir(t), 1);
  t.teardown(() => catalog.close());
  const records = generatedRecords();
  // One batch: the writer appends from an empty database, and msgpackr then stores its shared
  // structures at the top key in the middle of the batch, above the ids appended so far.
  applyRecords(catalog, records);
  const tracks = records.filter((r) => r.type === 'track') as { track_id: number }[];
  t.equal(catalog.trackCount(), tracks.length, 'every track stored');
  t.equal([...catalog.trackIds()].length, tracks.length);
  t.ok(catalog.tracks.doesExist(STRUCTURES_KEY), 'the shared structures at the top key, as before');
  t.notOk(catalog.tracks.doesExist(0));
  for (const { track_id } of tracks) if (!catalog.getTrack(track_id)) t.fail(`track ${track_id} missing`);
});

t.test('a new catalog keeps its shared structures below every id (formats 2 and 3)', async (t) => {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  applyRecords(catalog, generatedRecords().slice(0, 40));
  t.ok(catalog.tracks.doesExist(0));
  t.notOk(catalog.tracks.doesExist(STRUCTURES_KEY));
  t.equal(catalog.meta.get('catalog:format'), 3);
  t.equal([...catalog.trackIds()].length, catalog.trackCount());
});
