/**
 * The matcher's stages over a built text index (src/index/text/matcher.ts): precise (title core and
 * lead artist), fuzzy (title and artist similarity) and alias (aliases and name translations), the
 * choice among versions, and preciseMatch, which the server runs outside the pool.
 */
import t from 'tap';
import { Catalog } from '../../../src/catalog/store.js';
import { currentGeneration, loadGenerationAsync } from '../../../src/index/store/layout.js';
import { TextIndex } from '../../../src/index/text/text-index.js';
import { Matcher, preciseMatch, type MatchQuery } from '../../../src/index/text/matcher.js';
import { indexedDataDir } from '../../helpers/indexed.js';

const noah = { artist_id: 1, artist_name: 'Noah Murray' };
const zoe = { artist_id: 2, artist_name: 'Zoe Kim' };
const track = (track_id: number, track_name: string, by: { artist_id: number; artist_name: string }, extra: object = {}) =>
  ({ type: 'track', track_id, track_name, ...by, ...extra });

/** More tracks of one title and artist than preciseMatch reads outside the pool (256). */
const CROWD = Array.from({ length: 257 }, (_, i) =>
  track(3001 + i, 'Same Song', { artist_id: 3, artist_name: 'Crowd Band' }, { track_rating: i === 99 ? 99 : i % 50 }));

const RECORDS = [
  { type: 'artist', ...noah, artist_alias_list: [{ artist_alias: 'DJ Nomu' }],
    artist_name_translation_list: [{ artist_name_translation: { language: 'ru', translation: 'Ной Мюррей' } }] },
  { type: 'artist', ...zoe },
  { type: 'artist', artist_id: 3, artist_name: 'Crowd Band' },
  // Three versions of one song: the original is the least popular.
  track(101, 'Empty Love', noah, { track_rating: 40 }),
  track(102, 'Empty Love (Remastered 2011)', noah, { commontrack_id: 101, track_rating: 90 }),
  track(103, 'Empty Love - Live', noah, { commontrack_id: 101, track_rating: 95 }),
  track(104, 'Harbour Lights', { artist_id: 1, artist_name: 'Noah Murray feat. Zoe Kim' }, { track_rating: 30 }),
  // Two versions of a song whose original is not in the catalog.
  track(201, 'Paper Moon (Live)', zoe, { commontrack_id: 900, track_rating: 20 }),
  track(202, 'Paper Moon (Acoustic)', zoe, { commontrack_id: 900, track_rating: 70 }),
  ...CROWD,
];

let catalog: Catalog;
let ix: TextIndex;
let matcher: Matcher;
t.before(async () => {
  const data = await indexedDataDir(t, RECORDS);
  catalog = Catalog.open(data);
  t.teardown(() => catalog.close());
  ix = new TextIndex(await loadGenerationAsync(currentGeneration(data)!));
  matcher = new Matcher(ix, catalog);
});

const match = (title: string, artist: string, afterPrecise = false) => matcher.match({ title, artist }, Date.now() + 10_000, afterPrecise);

t.test('precise: the title core and the lead artist; among versions the exact title, then the original, then the most popular', async (t) => {
  t.same(match('Empty Love', 'Noah Murray'), { track: 101, mode: 'precise', confidence: 1000 });
  t.same(match('Empty Love (Remastered 2011)', 'Noah Murray'), { track: 102, mode: 'precise', confidence: 1000 },
    'the exact title before the original and the more popular');
  t.same(match('EMPTY LOVE - live', 'noah murray'), { track: 103, mode: 'precise', confidence: 1000 }, 'titles compare normalised');
  t.same(match('Empty Love (Demo)', 'Noah Murray'), { track: 101, mode: 'precise', confidence: 1000 },
    'no exact title: the original, though the other versions are more popular');
  t.same(match('Paper Moon', 'Zoe Kim'), { track: 202, mode: 'precise', confidence: 1000 }, 'no exact title, no original: the most popular');
  for (const artist of ['Noah Murray', 'Noah Murray & Zoe Kim', 'Noah Murray feat. Zoe Kim']) {
    t.same(match('Harbour Lights', artist), { track: 104, mode: 'precise', confidence: 1000 }, `credited "Noah Murray feat. Zoe Kim", asked as "${artist}"`);
  }
});

t.test('fuzzy: a misspelt title or artist, confidence from title and artist similarity', async (t) => {
  // 0.55 × title similarity (0.7) + 0.45 × artist similarity (1), in thousandths.
  t.same(match('Empti Love', 'Noah Murray'), { track: 101, mode: 'fuzzy', confidence: 835 }, 'equally close versions: the original');
  // An unknown artist word: the candidates come from the title's trigrams; 0.55 × 1 + 0.45 × 0.857.
  t.same(match('Empty Love', 'Noah Muray'), { track: 101, mode: 'fuzzy', confidence: 936 });
  t.same(match('Paper Mon', 'Zoe Kim'), { track: 202, mode: 'fuzzy', confidence: 913 }, 'equally close, no original: the most popular');
  t.same(match('Empty Love', 'Noah Murray', true), { track: 101, mode: 'fuzzy', confidence: 1000 }, 'afterPrecise skips the precise stage');
});

t.test('alias: an alias or a name translation, exact (950) or fuzzy', async (t) => {
  t.same(match('Empty Love', 'DJ Nomu'), { track: 101, mode: 'alias', confidence: 950 });
  t.same(match('Empty Love', 'Ной Мюррей'), { track: 101, mode: 'alias', confidence: 950 }, 'a translation, transliterated like the index');
  t.same(match('Empty Love (Remastered 2011)', 'DJ Nomu'), { track: 102, mode: 'alias', confidence: 950 }, 'versions chosen as in the precise stage');
  t.same(match('Empti Love', 'DJ Nomu'), { track: 101, mode: 'alias', confidence: 835 }, 'a misspelt title by an alias: the fuzzy confidence');
});

t.test('nothing close enough: an empty result', async (t) => {
  t.same(match('Completely Different', 'Noah Murray'), {}, 'the artist alone is not enough');
  t.same(match('Empty Love', 'Zoe Kim'), {}, 'nor the title alone');
  t.same(match('Empty Love', 'Noah Smith'), {}, 'the artist must be at least half alike, however well the title matches (0.38 here)');
  t.same(match('Emptiness Forever', 'Noah Murray'), {}, 'a title sharing a few trigrams');
});

t.test('preciseMatch runs the precise stage alone, and is unsure when it would read too many tracks', async (t) => {
  const q = (title: string, artist: string): MatchQuery => ({ title, artist });
  t.same(preciseMatch(ix, catalog, q('Empty Love (Demo)', 'Noah Murray')), { track: 101, mode: 'precise', confidence: 1000 });
  t.equal(preciseMatch(ix, catalog, q('Empti Love', 'Noah Murray')), undefined, 'a fuzzy match is left to the pool');
  t.equal(preciseMatch(ix, catalog, q('Empty Love', 'DJ Nomu')), undefined, 'so is an alias');
  t.equal(preciseMatch(ix, catalog, q('Same Song', 'Crowd Band')), 'unsure', '257 tracks of one title and artist');
  t.same(match('Same Song', 'Crowd Band'), { track: 3100, mode: 'precise', confidence: 1000 }, 'the pool reads them all and picks the most popular');
});

t.test('a query past its deadline stops with a deadline error; the matcher answers the next one', async (t) => {
  t.throws(() => matcher.match({ title: 'Empti Love', artist: 'Noah Murray' }, Date.now() - 1), { code: 'deadline' });
  t.same(match('Empti Love', 'Noah Murray'), { track: 101, mode: 'fuzzy', confidence: 835 });
});

t.test('a deadline passing after the votes were counted leaves the board empty for the next query', async (t) => {
  const deadline = Date.now() + 60_000;
  let late = false;
  const getTrack = catalog.getTrack.bind(catalog);
  const now = Date.now;
  // The first track read (the fuzzy stage scoring the artist's tracks, after the title's votes)
  // makes every later clock reading fall past the deadline.
  catalog.getTrack = (id: number) => ((late = true), getTrack(id));
  Date.now = () => (late ? deadline + 1 : deadline - 1);
  try {
    t.throws(() => matcher.match({ title: 'Empti Love', artist: 'Noah Murray' }, deadline, true), { code: 'deadline' });
  } finally {
    Date.now = now;
    catalog.getTrack = getTrack;
  }
  t.ok(late, 'the deadline passed while scoring, after the vote');
  const votes = (matcher as unknown as { votes: { share(doc: number): number } }).votes;
  const docs = [101, 102, 103].map((id) => ix.track.id.indexOf(id));
  t.same(docs.map((doc) => votes.share(doc)), [0, 0, 0], 'no vote of the stopped query is left');
  t.same(match('Empti Love', 'Noah Murray'), { track: 101, mode: 'fuzzy', confidence: 835 });
});
