/**
 * The fingerprint searcher on small built indexes: votes past a byte (a long passage's keys) counted
 * exactly and cleared for the next query; the second candidate pass for edited texts; the tie walk
 * narrowed by the text's keys.
 */
import t, { type Test } from 'tap';
import { Catalog } from '../../../src/catalog/store.js';
import { column, currentGeneration, loadGenerationAsync } from '../../../src/index/store/layout.js';
import { FingerprintSearcher } from '../../../src/index/fingerprint/search.js';
import type { Candidate } from '../../../src/index/kernel/votes.js';
import type { Kernel } from '../../../src/index/kernel/kernel.js';
import { testKernels } from '../../helpers/kernels.js';
import { PackedPostingsView } from '../../../src/index/store/postings.js';
import { ARTIST, ALBUM } from '../../helpers/fixtures.js';
import { indexedDataDir } from '../../helpers/indexed.js';

/** Words no other song here holds, so each sampled gram pair of a passage is a key of its own. */
function passage(seed: number, words: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(((x >>> 8) % 1_000_000).toString(36) + 'q' + (x % 97).toString(36));
  }
  return out.join(' ');
}

/** A track of the fixture artist and album whose lyrics are `lines`, of popularity `rating`. */
const song = (id: number, rating: number, lines: string[]) => ({
  type: 'track', track_id: id, track_name: `Song ${id}`, artist_id: ARTIST.artist_id, artist_name: ARTIST.artist_name,
  album_id: ALBUM.album_id, commontrack_id: 1000 + id, track_rating: rating, lyrics: { lyrics_body: lines.join('\n'), lyrics_language: 'en' },
});

/** One data directory per set of records, built once for both kernels' runs of a test (removed when the file's tests end). */
const built = new Map<string, Promise<string>>();
function dataDirOf(records: unknown[]): Promise<string> {
  const key = JSON.stringify(records);
  let dir = built.get(key);
  if (!dir) built.set(key, (dir = indexedDataDir(t, records)));
  return dir;
}

/** Budgets that read only the rarest list of a query. */
const RAREST_ONLY = { base: 1, basePerKey: 0, budget: 1, budgetPerKey: 0, cap: 1 };

/**
 * A built catalog of `songs` for a tie-walk test: its index, the lyrics reader a searcher takes
 * (recording every track read in `read`), and the text index's part as the engines wire it (the
 * tracks whose lyrics hold every word).
 */
async function tieCatalog(t: Test, kernel: Kernel, songs: unknown[]) {
  const data = await dataDirOf([ARTIST, ALBUM, ...songs]);
  const catalog = Catalog.open(data);
  t.teardown(() => catalog.close());
  const index = await loadGenerationAsync(currentGeneration(data)!);
  const read: number[] = [];
  const lyricOf = (id: number) => kernel.normalizeText(catalog.getContent('lyrics', id)?.lyrics_body ?? '');
  const lyricsOf = (id: number) => {
    read.push(id);
    return catalog.getContent('lyrics', id)?.lyrics_body === undefined ? undefined : lyricOf(id);
  };
  const holdingWords = (tracks: readonly number[], words: readonly string[]) => tracks.filter((id) => words.every((w) => kernel.wordsOf(lyricOf(id)).includes(w)));
  return { index, read, lyricsOf, holdingWords };
}

// Each kernel: the TypeScript reference and the native one give these answers alike.
for (const { name, kernel } of testKernels()) {
  t.test(`${name} kernel`, async (t) => {
    t.test('votes beyond a byte: the lyric holding more of a long query leads, whatever its popularity', async (t) => {
      const half = passage(1, 80);
      const whole = `${half} ${passage(2, 80)}`;
      // Song 1 is the more popular (the lower document) and holds half the query; song 2 holds all of it.
      const records = [ARTIST, ALBUM, song(1, 90, [half, passage(3, 40)]), song(2, 10, [whole]), song(3, 50, [passage(4, 120)])];
      const data = await dataDirOf(records);
      const catalog = Catalog.open(data);
      t.teardown(() => catalog.close());
      const index = await loadGenerationAsync(currentGeneration(data)!);
      const searcher = new FingerprintSearcher(index, (id) => {
        const body = catalog.getContent('lyrics', id)?.lyrics_body;
        return body === undefined ? undefined : kernel.normalizeText(body);
      }, undefined, undefined, undefined, undefined, kernel);
      const candidates = (text: string): Candidate[] =>
        kernel.candidateStage(index).candidates(kernel.normalizeText(text), 16).candidates;
      const docOf = (trackId: number) => [...column(index, 'fp-docs', 'track', 'u32')].indexOf(trackId);

      // Every list of so small an index is read: a lyric's vote is the weight of each key it holds.
      const postings = new PackedPostingsView(index, 'fp');
      const docs = column(index, 'fp-docs', 'track', 'u32').length;
      const normal = kernel.normalizeText(whole);
      const keys = kernel.indexKeys(normal, new Uint32Array(normal.length * 2), index.manifest.parts.fp.bucketBits);
      const expected = (doc: number): number => {
        let vote = 0;
        for (const key of keys) {
          const list = postings.list(key);
          if (list.length === 0) continue;
          const at = list.seek(doc, 0);
          if (at < list.length && list.at(at) === doc) vote += Math.max(1, Math.round(8 * Math.log(1 + docs / list.length)));
        }
        return Math.min(0xffff, vote);
      };

      const first = candidates(whole);
      t.equal(first[0].doc, docOf(2), 'the song holding the whole query first');
      t.equal(first[1].doc, docOf(1), 'the song holding half of it second');
      t.ok(first[1].vote > 255, `the runner-up's vote (${first[1].vote}) is past a byte`);
      t.equal(first[0].vote, expected(docOf(2)), `the leader's vote (${first[0].vote}) is the sum of its keys' weights`);
      t.equal(first[1].vote, expected(docOf(1)), "and so is the runner-up's");
      t.same(candidates(whole), first, 'the same votes again: the board was cleared');
      const other = candidates(passage(4, 60));
      t.same(other.map((c) => c.doc), [docOf(3)], 'another query sees none of the first one');
      t.same(candidates(whole), first, 'and the first again');
    });

    /** The catalog of the second-pass tests: lines of `words` words each (docs/index.md, "A second pass for edited texts"). */
    async function editedCatalog(t: Test, words: number) {
      const line = (seed: number) => passage(seed, words);
      const [a, b, c, d, e, f, g] = [10, 11, 12, 13, 14, 15, 16].map(line);
      const songs = [song(1, 1, [a, b, c, d, e, f])]; // the source, the least popular
      // Songs sharing a few of its lines each (its keys' lists are long), and one holding its first line
      // and the line the query puts in the place of its third (the query's rarest keys are that song's).
      for (let i = 0; i < 20; i++) songs.push(song(100 + i, 50, [a, b, c, line(1000 + i)]), song(200 + i, 50, [c, d, e, line(2000 + i)]), song(300 + i, 50, [e, f, a, line(3000 + i)]));
      songs.push(song(400, 90, [a, g, line(4000)]));
      const data = await dataDirOf([ARTIST, ALBUM, ...songs]);
      const catalog = Catalog.open(data);
      t.teardown(() => catalog.close());
      const index = await loadGenerationAsync(currentGeneration(data)!);
      const lyricsOf = (id: number) => {
        const body = catalog.getContent('lyrics', id)?.lyrics_body;
        return body === undefined ? undefined : kernel.normalizeText(body);
      };
      return { index, lyricsOf, query: [a, b, g, d, e, f].join('\n') };
    }

    t.test('an edited text whose rarer keys point elsewhere: a second, deeper pass finds its source', async (t) => {
      const { index, lyricsOf, query } = await editedCatalog(t, 6);
      // Budgets small enough for this catalog to be what the defaults are for millions of lyrics: the
      // first pass reads only the keys of the line the source lacks, and finds a third of the query.
      const tight = { base: 30, basePerKey: 0, budget: 30, budgetPerKey: 0, cap: 30 };
      const searcher = new FingerprintSearcher(index, lyricsOf, undefined, undefined, undefined, tight, kernel);
      const firstPass = kernel.candidateStage(index, tight).candidates(kernel.normalizeText(query), 20).candidates;
      const sourceDoc = [...column(index, 'fp-docs', 'track', 'u32')].indexOf(1);
      t.notOk(firstPass.some((c) => c.doc === sourceDoc), 'the first pass alone does not make the source a candidate');
      const hits = searcher.search(query, 10, Infinity);
      t.equal(hits[0]?.track, 1, 'the source first');
      t.ok(hits[0].covered > 0.8 * kernel.normalizeText(query).length, `accounting for five lines of six (${hits[0].covered} characters)`);
      t.ok(hits.some((h) => h.track === 400), 'the song holding the replaced line is still an answer');
      const all = new FingerprintSearcher(index, lyricsOf, undefined, undefined, undefined, undefined, kernel).search(query, 10, Infinity);
      t.equal(all[0]?.track, 1, 'as with budgets that read every key');
    });

    t.test('a text under 100 characters takes no second pass', async (t) => {
      const { index, lyricsOf, query } = await editedCatalog(t, 2);
      t.ok(kernel.normalizeText(query).length < 100, `the query is ${kernel.normalizeText(query).length} characters`);
      const tight = { base: 30, basePerKey: 0, budget: 30, budgetPerKey: 0, cap: 30 };
      const hits = new FingerprintSearcher(index, lyricsOf, undefined, undefined, undefined, tight, kernel).search(query, 10, Infinity);
      t.notOk(hits.some((h) => h.track === 1), 'its source is not found with budgets this small');
      t.equal(new FingerprintSearcher(index, lyricsOf, undefined, undefined, undefined, undefined, kernel).search(query, 10, Infinity)[0]?.track, 1, 'and is with budgets that read every key');
    });

    t.test('a text whose every key many songs share: the tie walk reads only the lyrics holding every key', async (t) => {
      const [l1, l2, l3] = [60, 61, 62].map((seed) => passage(seed, 5));
      const reversed = (line: string) => line.split(' ').reverse().join(' ');
      // The least popular song holds the three lines in order. 300 hold the first two and the third's
      // words in another order, 300 the last two and the first's words in another order: every key of
      // the text is in 301 lyrics (more than refinement looks at), and every word in all of them.
      const songs = [song(1, 1, [l1, l2, l3])];
      for (let i = 0; i < 300; i++) songs.push(song(100 + i, 50, [l1, l2, passage(2000 + i, 4), reversed(l3)]), song(200 + i, 50, [reversed(l1), l2, l3, passage(3000 + i, 4)]));
      const { index, read, lyricsOf, holdingWords } = await tieCatalog(t, kernel, songs);
      const query = [l1, l2, l3].join('\n');
      // Budgets that read only the rarest list: its 301 lyrics tie, the most popular are verified.
      const hits = new FingerprintSearcher(index, lyricsOf, undefined, undefined, holdingWords, RAREST_ONLY, kernel).search(query, 5, Infinity);
      t.equal(hits[0]?.track, 1, 'the song holding the text first');
      t.equal(hits[0].longest, kernel.normalizeText(query).length, 'as one passage');
      // The candidates (16, and one refinement may add), then, of the rest of the tie, only the lyric
      // holding every key: not the hundreds holding every word.
      t.ok(read.length <= 18, `${read.length} lyrics read in all`);
      t.equal(read.at(-1), 1, 'the last of them the song holding the text');
    });

    t.test('a tie of more lyrics than MAX_TIED: those holding the text\'s word order are walked, and every one holding it whole is listed', async (t) => {
      const [l1, l2, l3] = [70, 71, 72].map((seed) => passage(seed, 5));
      const reversed = (line: string) => line.split(' ').reverse().join(' ');
      // Three of the least popular songs hold the three lines in order; 1,200 more popular ones hold
      // every word and most keys of them, l1 or l3 reversed: every key of the text is in 600 or more
      // lyrics, past MAX_TIED (512).
      const songs = [1, 2, 3].map((id) => song(id, id, [passage(4000 + id, 4), l1, l2, l3]));
      for (let i = 0; i < 600; i++) songs.push(song(1000 + i, 50, [l1, l2, passage(2000 + i, 4), reversed(l3)]), song(2000 + i, 50, [reversed(l1), l2, l3, passage(3000 + i, 4)]));
      const { index, read, lyricsOf, holdingWords } = await tieCatalog(t, kernel, songs);
      const query = [l1, l2, l3].join('\n');
      const searcher = new FingerprintSearcher(index, lyricsOf, (_, track) => ({ tracks: [track], popularity: track }), undefined, holdingWords, RAREST_ONLY, kernel);
      const hits = searcher.search(query, 5, Infinity);
      const whole = hits.filter((h) => h.longest === kernel.normalizeText(query).length).map((h) => h.track);
      t.same(whole, [3, 2, 1], 'the three songs holding the text whole, most popular first');
      t.same(hits.slice(0, 3).map((h) => h.track), [3, 2, 1], 'ahead of the rest');
      t.ok(hits.slice(0, 3).every((h) => Math.round(h.similarity) === 33), `sharing the evidence: ${hits.slice(0, 3).map((h) => h.similarity.toFixed(1))}`);
      // The candidates (16, and refinement may add one), then only the lyrics holding the order.
      const walked = read.filter((id) => id < 1000);
      t.same(walked.sort(), [1, 2, 3], 'of the tie, only the three are read');
      t.ok(read.length <= 20, `${read.length} lyrics read in all`);
    });

    t.test('the tie walk lists the lyrics holding the text as one passage, not those it reads holding its pieces', async (t) => {
      const [l1, l2, l3] = [80, 81, 82].map((seed) => passage(seed, 5));
      // Two of the least popular songs hold the three lines in order. Sixty more popular ones hold
      // every key and every pair of words of the text, in two pieces (l1 l2 … l2 l3): the tie's word
      // order and unread keys cannot tell them from the two, and each accounts for all of the text.
      const songs = [1, 2].map((id) => song(id, id, [passage(5000 + id, 4), l1, l2, l3]));
      for (let i = 0; i < 60; i++) songs.push(song(1000 + i, 50, [l1, l2, passage(6000 + i, 4), l2, l3]));
      const { index, read, lyricsOf, holdingWords } = await tieCatalog(t, kernel, songs);
      const query = [l1, l2, l3].join('\n');
      const length = kernel.normalizeText(query).length;
      // Equal answers go by this popularity: the earlier track ids first, which the walk reads.
      const hits = new FingerprintSearcher(index, lyricsOf, (_, track) => ({ tracks: [track], popularity: -track }), undefined, holdingWords, RAREST_ONLY, kernel).search(query, 8, Infinity);
      t.same(hits.slice(0, 2).map((h) => h.track), [1, 2], 'the two holding the text whole first');
      t.ok(hits.slice(0, 2).every((h) => h.longest === length), 'as one passage');
      const pieces = hits.slice(2);
      t.ok(pieces.length > 0 && pieces.every((h) => h.covered === length && h.longest < length), 'then songs accounting for the text in pieces');
      // The candidates (16, and refinement may add one) are verified and listed; the walk reads the
      // rest of the tie, up to the two and past them, and lists none of the others.
      const verified = read.slice(0, 17);
      t.ok(read.length > 40, `the walk read ${read.length - 17} more lyrics`);
      t.ok(pieces.every((h) => verified.includes(h.track)), `those in pieces listed are candidates: ${pieces.map((h) => read.indexOf(h.track))}`);
    });
  });
}
