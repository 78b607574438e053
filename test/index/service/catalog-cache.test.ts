/**
 * A pool worker's CatalogCache: lyrics and recordings read once and kept, at most as many as it is
 * given, the most recently used kept; cleared, it reads the catalog's new state.
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

t.test('lyrics are read once, normalised, and a track without lyrics is remembered too', async (t) => {
  const { catalog, reads } = countedCatalog(t);
  const cache = new CatalogCache(catalog);
  t.equal(cache.lyricsOf(1), normalizeText(LYRICS));
  t.equal(cache.lyricsOf(1), normalizeText(LYRICS));
  t.equal(reads.lyrics, 1, 'the second is from the cache');
  t.equal(cache.lyricsOf(999_999), undefined, 'no such track');
  t.equal(cache.lyricsOf(999_999), undefined);
  t.equal(reads.lyrics, 2, 'a track without lyrics is not read again either');
});

t.test('recordings: their tracks most popular first and the best rating, read once', async (t) => {
  const { catalog, reads } = countedCatalog(t);
  const cache = new CatalogCache(catalog);
  const versions = TRACKS.filter((r) => r.commontrack_id === 10).sort((a, b) => b.track_rating - a.track_rating);
  t.ok(versions.length >= 2, 'the fixtures have a recording of several versions');
  const recording = cache.recordingOf(10, versions[0].track_id);
  t.same(recording, { tracks: versions.map((v) => v.track_id), popularity: versions[0].track_rating });
  t.equal(cache.recordingOf(10, versions[0].track_id), recording);
  t.equal(reads.recordings, 1);
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
  cache.lyricsOf(a);
  cache.lyricsOf(b);
  cache.lyricsOf(a); // a is now the most recent: b goes first
  cache.lyricsOf(c);
  t.equal(reads.lyrics, 3);
  cache.lyricsOf(a);
  t.equal(reads.lyrics, 3, 'a stayed');
  cache.lyricsOf(b);
  t.equal(reads.lyrics, 4, 'b was dropped');
  cache.recordingOf(10, 1);
  cache.recordingOf(777_777, 3);
  cache.recordingOf(10, 1);
  t.equal(reads.recordings, 3, 'one recording kept (two versions and 4: 6 track ids)');
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
  t.equal(cache.lyricsOf(1), normalizeText(LYRICS));
  applyRecords(catalog, [{ ...TRACKS[0], lyrics: { ...TRACKS[0].lyrics, lyrics_body: 'Brand new words for this song' } }]);
  t.equal(cache.lyricsOf(1), normalizeText(LYRICS), 'still the cached lyrics');
  cache.clear();
  t.equal(cache.lyricsOf(1), 'brand new words for this song');
});
