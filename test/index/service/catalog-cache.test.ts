/**
 * A pool worker's CatalogCache: lyrics and recordings kept from their second read, at most as many
 * as it is given, the most recently used kept; cleared, it reads the catalog's new state.
 */
import t, { type Test } from 'tap';
import { Catalog } from '../../../src/catalog/store.js';
import { CatalogCache } from '../../../src/index/service/engines.js';
import { normalizeText } from '../../../src/index/kernel/normalize.js';
import { applyRecords } from '../../helpers/apply.js';
import { FIXTURE_RECORDS, LYRICS, TRACKS } from '../../helpers/fixtures.js';
import { tempDir } from '../../helpers/tmp.js';

/** A catalog of the fixtures whose reads are counted. */
function countedCatalog(t: Test) {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  applyRecords(catalog, FIXTURE_RECORDS);
  const reads = { lyrics: 0, recordings: 0 };
  const getContent = catalog.getContent.bind(catalog);
  catalog.getContent = ((kind: Parameters<Catalog['getContent']>[0], id: number) => {
    reads.lyrics++;
    return getContent(kind, id);
  }) as Catalog['getContent'];
  const tracksOf = catalog.tracksOf.bind(catalog);
  catalog.tracksOf = (...args: Parameters<Catalog['tracksOf']>) => {
    reads.recordings++;
    return tracksOf(...args);
  };
  return { catalog, reads };
}

const withLyrics = TRACKS.filter((r) => r.lyrics?.lyrics_body).map((r) => r.track_id);

t.test('lyrics are kept from their second read, normalised, and a track without lyrics too', async (t) => {
  const { catalog, reads } = countedCatalog(t);
  const cache = new CatalogCache(catalog);
  for (let i = 0; i < 3; i++) t.equal(cache.lyricsOf(1), normalizeText(LYRICS));
  t.equal(reads.lyrics, 2, 'the first read is not kept, the second is: the third is from the cache');
  for (let i = 0; i < 3; i++) t.equal(cache.lyricsOf(999_999), undefined, 'no such track');
  t.equal(reads.lyrics, 4, 'a track without lyrics is not read a third time either');
});

t.test('recordings: their tracks most popular first and the best rating, read once', async (t) => {
  const { catalog, reads } = countedCatalog(t);
  const cache = new CatalogCache(catalog);
  const versions = TRACKS.filter((r) => r.commontrack_id === 10).sort((a, b) => b.track_rating - a.track_rating);
  t.ok(versions.length >= 2, 'the fixtures have a recording of several versions');
  t.same(cache.recordingOf(10, versions[0].track_id), { tracks: versions.map((v) => v.track_id), popularity: versions[0].track_rating });
  const recording = cache.recordingOf(10, versions[0].track_id);
  t.equal(cache.recordingOf(10, versions[0].track_id), recording);
  t.equal(reads.recordings, 2, 'kept from the second read');
  t.same(cache.recordingOf(777_777, 1), { tracks: [1], popularity: TRACKS[0].track_rating }, 'a group that is gone: its indexed track alone');
});

t.test('at most the characters and track ids given are kept, the least recently used dropped first', async (t) => {
  const { catalog, reads } = countedCatalog(t);
  t.ok(withLyrics.length >= 3);
  const [a, b, c] = withLyrics;
  /** What an entry of lyrics weighs: its normalised characters and 64. */
  const weight = (id: number) => normalizeText(TRACKS.find((r) => r.track_id === id)!.lyrics!.lyrics_body).length + 64;
  // Room for any two of the three, not for all three.
  const cache = new CatalogCache(catalog, { lyrics: weight(a) + weight(b) + weight(c) - 1, recordings: 6 });
  /** Read twice: kept from the second read. */
  const twice = <T>(read: () => T) => (read(), read());
  twice(() => cache.lyricsOf(a));
  twice(() => cache.lyricsOf(b));
  cache.lyricsOf(a); // a is now the most recent: b goes first
  twice(() => cache.lyricsOf(c));
  t.equal(reads.lyrics, 6);
  cache.lyricsOf(a);
  t.equal(reads.lyrics, 6, 'a stayed');
  cache.lyricsOf(b);
  t.equal(reads.lyrics, 7, 'b was dropped');
  twice(() => cache.recordingOf(10, 1));
  twice(() => cache.recordingOf(777_777, 3));
  cache.recordingOf(10, 1);
  t.equal(reads.recordings, 5, 'one recording kept (two versions and 4: 6 track ids)');
});

t.test('a lyric read once does not displace those read again; the ones read once are forgotten in bulk', async (t) => {
  const { catalog, reads } = countedCatalog(t);
  const [a, b, c] = withLyrics;
  const weight = (id: number) => normalizeText(TRACKS.find((r) => r.track_id === id)!.lyrics!.lyrics_body).length + 64;
  const cache = new CatalogCache(catalog, { lyrics: weight(a) + weight(b) + 64 });
  for (const id of [a, a, b, b]) cache.lyricsOf(id);
  t.equal(reads.lyrics, 4);
  cache.lyricsOf(c);
  cache.lyricsOf(a);
  cache.lyricsOf(b);
  t.equal(reads.lyrics, 5, 'c was read once and not kept: a and b are still cached');
  // 65,536 more tracks read once (none has lyrics): the ones read once are forgotten all at once,
  // so c's next read is a first read again, and only the one after it keeps c.
  for (let id = 1_000_000; id < 1_065_537; id++) cache.lyricsOf(id);
  const before = reads.lyrics;
  for (let i = 0; i < 3; i++) cache.lyricsOf(c);
  t.equal(reads.lyrics - before, 2, 'c forgotten with them: read twice more, then kept');
});

t.test('over thousands of uses and drops, the cache keeps what a plain least-recently-used list keeps', async (t) => {
  const { catalog, reads } = countedCatalog(t);
  const weight = (id: number) => normalizeText(TRACKS.find((r) => r.track_id === id)!.lyrics!.lyrics_body).length + 64;
  const ids = withLyrics;
  t.ok(ids.length >= 4, `${ids.length} tracks with lyrics`);
  // Room for about half of them.
  const budget = ids.slice(0, Math.ceil(ids.length / 2)).reduce((sum, id) => sum + weight(id), 0);
  const cache = new CatalogCache(catalog, { lyrics: budget });
  /** The model: ids most recently used last, kept from their second read, the oldest dropped while over the budget. */
  let kept: number[] = [];
  const once = new Set<number>();
  let modelReads = 0;
  let x = 7;
  for (let i = 0; i < 5_000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const id = ids[(x >>> 8) % ids.length];
    cache.lyricsOf(id);
    if (kept.includes(id)) kept = [...kept.filter((k) => k !== id), id];
    else if (!once.delete(id)) {
      modelReads++;
      once.add(id);
    } else {
      modelReads++;
      kept.push(id);
      while (kept.reduce((sum, k) => sum + weight(k), 0) > budget) kept.shift();
    }
    if (reads.lyrics !== modelReads) break;
  }
  t.equal(reads.lyrics, modelReads, 'the same reads after every use');
  t.ok(modelReads > 1_000, `${modelReads} of 5,000 uses were reads: the cache dropped and read again`);
});

t.test('lyrics longer than the whole budget are read each time, never kept', async (t) => {
  const { catalog, reads } = countedCatalog(t);
  const cache = new CatalogCache(catalog, { lyrics: 50 });
  t.equal(cache.lyricsOf(1), normalizeText(LYRICS));
  t.equal(cache.lyricsOf(1), normalizeText(LYRICS));
  t.equal(reads.lyrics, 2);
});

t.test('clear() drops everything: the catalog\'s new lyrics are read', async (t) => {
  const { catalog } = countedCatalog(t);
  const cache = new CatalogCache(catalog);
  cache.lyricsOf(1);
  t.equal(cache.lyricsOf(1), normalizeText(LYRICS));
  applyRecords(catalog, [{ ...TRACKS[0], lyrics: { ...TRACKS[0].lyrics, lyrics_body: 'Brand new words for this song' } }]);
  t.equal(cache.lyricsOf(1), normalizeText(LYRICS), 'still the cached lyrics');
  cache.clear();
  t.equal(cache.lyricsOf(1), 'brand new words for this song');
});
