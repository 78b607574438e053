import t from 'tap';
import { open } from 'lmdb';
import path from 'node:path';
import { isAbove } from '../../src/catalog/append.js';
import { Catalog, CONTENT_KINDS, INDEXES, STRUCTURES_KEY, everyId } from '../../src/catalog/store.js';
import { catalogLines } from '../../src/generate/catalog.js';
import { applyRecords } from '../helpers/apply.js';
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

/** Every stored value of the catalog's record databases and every index key, for comparing two catalogs. */
function contents(catalog: Catalog): unknown {
  const records = (db: typeof catalog.tracks | (typeof catalog.content)[keyof typeof catalog.content]) =>
    [...db.getRange(everyId())].map(({ key, value }) => [key, value]);
  return {
    tracks: records(catalog.tracks),
    artists: [...catalog.artists.getRange(everyId())].map(({ key, value }) => [key, value]),
    albums: [...catalog.albums.getRange(everyId())].map(({ key, value }) => [key, value]),
    content: Object.fromEntries(CONTENT_KINDS.map((kind) => [kind, records(catalog.content[kind])])),
    index: Object.fromEntries(INDEXES.map((name) => [name, [...catalog.index[name].getKeys()]])),
    count: catalog.trackCount(),
  };
}

/** A generated catalog's lines, as records (artists, albums and tracks in id order, as the generator writes them). */
function generatedRecords(): object[] {
  return [...catalogLines(5, 300, { artists: 0, albums: 0, tracks: 0, lines: 0 })].map((line) => JSON.parse(line) as object);
}

/** Applies records in batches of `size` (an import's transactions). */
function applyInBatches(catalog: Catalog, records: object[], size: number): void {
  for (let i = 0; i < records.length; i += size) applyRecords(catalog, records.slice(i, i + size));
}

t.test('a catalog imported in id order (appends) holds exactly what one imported in another order holds', async (t) => {
  const records = generatedRecords();
  // Artists and albums first (a track names them), tracks in reverse: no new key is above the last.
  const reversed = [...records.filter((r) => (r as { type: string }).type !== 'track'), ...records.filter((r) => (r as { type: string }).type === 'track').reverse()];
  const inOrder = Catalog.open(tempDir(t));
  const otherOrder = Catalog.open(tempDir(t));
  t.teardown(() => Promise.all([inOrder.close(), otherOrder.close()]));
  applyInBatches(inOrder, records, 37);
  applyInBatches(otherOrder, reversed, 37);
  t.ok(inOrder.trackCount() > 250, 'the generated tracks');
  t.same(contents(inOrder), contents(otherOrder));
  // Appended, the pages are full: fewer of them.
  const leaves = (c: Catalog) => (c.tracks.getStats() as { treeLeafPageCount: number }).treeLeafPageCount;
  t.ok(leaves(inOrder) < 0.8 * leaves(otherOrder), `track pages: ${leaves(inOrder)} in id order, ${leaves(otherOrder)} in reverse`);
  // Updates and new tracks below the last id after that: ordinary puts, nothing lost.
  const tracks = records.filter((r) => (r as { type: string }).type === 'track') as { track_id: number; track_name: string }[];
  applyRecords(inOrder, [{ ...tracks[3], track_name: 'Renamed' }, ...tracks.slice(-2)]);
  t.equal(inOrder.getTrack(tracks[3].track_id)?.track_name, 'Renamed');
  t.equal(inOrder.trackCount(), otherOrder.trackCount());
});

t.test('a format-1 catalog keeps its shared structures at the top key, and imports lose nothing', async (t) => {
  const dir = tempDir(t);
  // A catalog as an older Refrain created it (format 1: shared structures at the top key).
  const root = open({ path: path.join(dir, 'catalog'), maxDbs: 64 });
  const meta = root.openDB<unknown, string>({ name: 'meta' });
  meta.putSync('catalog:format', 1);
  meta.putSync('catalog:genres:2', 1);
  await root.close();
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const records = generatedRecords();
  // One batch: the writer appends from an empty database, and msgpackr then stores its shared
  // structures at the top key in the middle of the batch, above the ids appended so far.
  applyRecords(catalog, records);
  const tracks = records.filter((r) => (r as { type: string }).type === 'track') as { track_id: number }[];
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
