import t from 'tap';
import { importRecordSchema } from '../../src/catalog/schema.js';
import { ALBUM_ID_BASE, ARTIST_ID_BASE, MAX_TRACKS, TRACK_ID_BASE, generateCatalog } from '../../src/generate/index.js';
import { parsedCatalog } from './fixtures/catalog.js';

const catalog = parsedCatalog();

t.test('the same seed and size give byte-identical output; another seed differs', async (t) => {
  const again = [...generateCatalog({ tracks: 3000, seed: 7 }).lines];
  t.equal(again.length, catalog.lines.length);
  t.equal(again.join('\n'), catalog.lines.join('\n'));
  const other = [...generateCatalog({ tracks: 3000, seed: 8 }).lines];
  t.not(other[0], catalog.lines[0]);
  t.equal(other.filter((line, i) => line === catalog.lines[i]).length, 0, 'no line shared with another seed');
});

t.test('every line passes the import schema', async (t) => {
  const failures = catalog.records
    .map((r, i) => ({ i, result: importRecordSchema.safeParse(r) }))
    .filter(({ result }) => !result.success);
  t.same(failures.map(({ i, result }) => ({ line: i + 1, error: result.error?.issues[0] })), []);
});

t.test('lines come in import order and stats count them', async (t) => {
  const { lines, stats } = generateCatalog({ tracks: 500, seed: 3 });
  const seenArtists = new Set<number>();
  const seenAlbums = new Set<number>();
  const problems: string[] = [];
  let produced = 0;
  for (const line of lines) {
    produced++;
    if (stats.lines !== produced) problems.push(`stats.lines is ${stats.lines} at line ${produced}`);
    const r = JSON.parse(line);
    if (r.type === 'artist') seenArtists.add(r.artist_id);
    if (r.type === 'album') {
      if (!seenArtists.has(r.artist_id)) problems.push(`album ${r.album_id} before its artist`);
      seenAlbums.add(r.album_id);
    }
    if (r.type === 'track' && !(seenArtists.has(r.artist_id) && seenAlbums.has(r.album_id))) problems.push(`track ${r.track_id} before its artist or album`);
  }
  t.same(problems, []);
  t.same(stats, { artists: seenArtists.size, albums: seenAlbums.size, tracks: 500, lines: produced });
  t.equal(stats.lines, stats.artists + stats.albums + stats.tracks);
});

t.test('iterating again starts over and resets stats', async (t) => {
  const { lines, stats } = generateCatalog({ tracks: 50, seed: 1 });
  const first = [...lines];
  const snapshot = { ...stats };
  const second = [...lines];
  t.same(second, first);
  t.same(stats, snapshot);
  t.equal(stats.tracks, 50);
});

t.test('exactly the requested number of tracks, including none', async (t) => {
  for (const tracks of [0, 1, 2, 17, 1001]) {
    const { lines, stats } = generateCatalog({ tracks, seed: 5 });
    const count = [...lines].filter((l) => l.startsWith('{"type":"track"')).length;
    t.equal(count, tracks);
    t.equal(stats.tracks, tracks);
  }
});

t.test('ids come from their own disjoint ranges, clear of the real corpus', async (t) => {
  const inRange = (id: number, base: number): boolean => id > base && id < base + 100_000_000 && id < 0xffff_ffff;
  t.ok(catalog.tracks.every((r) => inRange(r.track_id, TRACK_ID_BASE)));
  t.ok(catalog.albums.every((r) => inRange(r.album_id, ALBUM_ID_BASE)));
  t.ok(catalog.artists.every((r) => inRange(r.artist_id, ARTIST_ID_BASE)));
  t.equal(new Set(catalog.tracks.map((r) => r.track_id)).size, catalog.tracks.length);
  t.ok(TRACK_ID_BASE + MAX_TRACKS < ALBUM_ID_BASE);
  t.ok(catalog.records.every((r) => ![r.track_id, r.album_id, r.artist_id].some((id) => id >= 10_000_000 && id <= 14_999_999)));
});

t.test('bad options are refused', async (t) => {
  t.throws(() => generateCatalog({ tracks: -1, seed: 1 }), RangeError);
  t.throws(() => generateCatalog({ tracks: 1.5, seed: 1 }), RangeError);
  t.throws(() => generateCatalog({ tracks: MAX_TRACKS + 1, seed: 1 }), RangeError);
  t.throws(() => generateCatalog({ tracks: 1, seed: Number.NaN }), RangeError);
});
