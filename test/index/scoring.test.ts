/** Fingerprint features, verification and ranking helpers. */
import t from 'tap';
import { bucketBitsFor, bucketOf, gramHashes, GRAM, isSampled, indexKeys, SAMPLE, unspacedAt } from '../../src/index/kernel/grams.js';
import { QueryGrams } from '../../src/index/kernel/coverage.js';
import { normalizeText } from '../../src/index/kernel/normalize.js';
import { TopK } from '../../src/index/kernel/topk.js';
import { rank, refine, shareEvidence, TIE_WINDOW, type Candidate, type FingerprintHit } from '../../src/index/fingerprint/search.js';
import { artistCore, looseSimilarity, nameSimilarity, titleCore } from '../../src/index/text/names.js';

const LYRIC = normalizeText(`Somewhere between the desert and the sea
I lost the letters that you wrote to me
Take me back to Tokyo, the midnight train is calling
Hold on to the song, hold on to me`);

t.test('a gram hash depends only on its characters, not on where it sits', async (t) => {
  const a = new Uint32Array(100);
  const b = new Uint32Array(100);
  const n = gramHashes('hello world', a);
  t.equal(n, 'hello world'.length - GRAM + 1);
  gramHashes('xx hello world', b);
  t.same([...a.subarray(0, n)], [...b.subarray(3, 3 + n)]);
  t.equal(gramHashes('abc', a), 0, 'shorter than a gram: none');
});

t.test('sampling keeps about one gram in SAMPLE, the same ones in a passage and its source', async (t) => {
  const scratch = new Uint32Array(LYRIC.length);
  const n = gramHashes(LYRIC, scratch);
  let kept = 0;
  for (let i = 0; i < n; i++) if (isSampled(scratch[i])) kept++;
  t.ok(kept > n / SAMPLE / 2 && kept < (n / SAMPLE) * 2, `${kept} of ${n}`);
  const whole = new Set(indexKeys(LYRIC, new Uint32Array(LYRIC.length), 24));
  const part = indexKeys(LYRIC.slice(40, 120), new Uint32Array(80), 24);
  t.ok(part.length > 0);
  for (const b of part) t.ok(whole.has(b), 'a passage keeps a subset of its source’s buckets');
  t.equal(bucketOf(0xffffffff, 24), 2 ** 24 - 1);
  t.equal(bucketBitsFor(6), 16);
  t.equal(bucketBitsFor(20_000), 22);
  t.equal(bucketBitsFor(1_000_000), 24);
});

t.test('coverage: a passage is fully accounted for, typos cost about their own characters', async (t) => {
  const excerpt = LYRIC.slice(0, 120);
  const exact = new QueryGrams(excerpt).coverage(LYRIC);
  t.equal(exact.covered, excerpt.length);
  t.equal(exact.longest, excerpt.length);

  const typos = excerpt.slice(0, 30) + 'x' + excerpt.slice(31, 70) + 'q' + excerpt.slice(71);
  const noisy = new QueryGrams(typos).coverage(LYRIC);
  t.ok(noisy.covered >= excerpt.length - 6 && noisy.covered < excerpt.length, `covered ${noisy.covered} of ${excerpt.length}`);

  const unrelated = normalizeText('The committee will consider the budget of the city for the next fiscal year in the spring session.');
  const none = new QueryGrams(unrelated).coverage(LYRIC);
  t.ok(none.covered / unrelated.length < 0.15, `unrelated prose covers ${none.covered} of ${unrelated.length}`);

  const embedded = `${unrelated} ${excerpt} ${unrelated}`;
  const part = new QueryGrams(embedded).coverage(LYRIC);
  t.ok(part.covered >= excerpt.length - 2 && part.covered <= excerpt.length + 10, 'an embedded passage is found, and only it');
  t.ok(part.longest >= excerpt.length - 2);
});

t.test('the longest passage follows the lyric: pieces found in different places are not one passage', async (t) => {
  const query = normalizeText('the quick brown fox jumps over the lazy dog');
  const stitched = new QueryGrams(query).coverage(normalizeText('the quick brown fox jumps high and then, much later, a fox jumps over the lazy dog'));
  t.equal(stitched.covered, query.length, 'every character is in the lyric');
  t.ok(stitched.longest >= 20 && stitched.longest <= 'the quick brown fox jumps '.length, `the longest piece (${stitched.longest}), not the two stitched together`);
  const whole = new QueryGrams(query).coverage(normalizeText(`a song where ${query} at once`));
  t.same(whole, { covered: query.length, longest: query.length });
});

t.test('overlapping runs are counted once', async (t) => {
  const q = new QueryGrams('hold on to me hold on to me hold on to me');
  const r = q.coverage('hold on to me');
  t.ok(r.covered <= 'hold on to me hold on to me hold on to me'.length);
  t.equal(new QueryGrams('').coverage(LYRIC).covered, 0);
});

t.test('TopK keeps the k best, ties broken by the lower tie value', async (t) => {
  const top = new TopK(3);
  for (const [id, score] of [[1, 5], [2, 9], [3, 1], [4, 9], [5, 7], [6, 0]]) top.push(id, score);
  t.same(top.sorted(), [2, 4, 5]);
  t.equal(top.floor, 7);
  const empty = new TopK(0);
  empty.push(1, 1);
  t.same(empty.sorted(), []);
});

t.test('title and artist cores drop versions and featured credits', async (t) => {
  t.equal(titleCore('Empty Love (Remastered 2011)'), 'empty love');
  t.equal(titleCore('Empty Love - Live'), 'empty love');
  t.equal(titleCore('Empty Love [Radio Edit] (feat. Someone)'), 'empty love');
  t.equal(titleCore('Empty Love feat. Someone'), 'empty love');
  t.equal(titleCore('(Untitled)'), 'untitled', 'a title that is all decoration stays itself');
  t.equal(artistCore('Noah Murray feat. Zoe Kim'), 'noah murray');
  t.equal(artistCore('Noah Murray & Zoe Kim'), 'noah murray');
  t.equal(artistCore('Noah Murray, Zoe Kim'), 'noah murray');
  t.equal(nameSimilarity('noah murray', 'noah murray'), 1);
  t.ok(nameSimilarity('noah murray', 'noah muray') > 0.7);
  t.ok(nameSimilarity('noah murray', 'zoe kim') < 0.2);
  t.equal(looseSimilarity('murray noah', 'noah murray'), 1, 'word order does not matter');
});

t.test('refine: the unread keys lift the lyric that holds them all, and the earlier best stay', async (t) => {
  const first: Candidate[] = [
    { doc: 10, vote: 30 },
    { doc: 4, vote: 29 },
    { doc: 7, vote: 20 },
    { doc: 2, vote: 20 },
  ];
  // Two long lists left unread; doc 7 is in both, doc 2 in one.
  const unread = [Uint32Array.from([1, 2, 3, 7, 9, 11, 12]), Uint32Array.from([5, 7, 8, 13])];
  const chosen = refine(first, unread, 2, () => 6);
  t.same(
    chosen.map((c) => [c.doc, c.vote]),
    [
      [7, 32],
      [10, 30],
      [4, 29],
    ],
    'doc 7 rises to the top; doc 4, second before, is still verified',
  );
  t.same(first[2], { doc: 7, vote: 20 }, 'the input is not changed');
  t.same(
    refine(first, [], 3, () => 6).map((c) => c.doc),
    [10, 4, 2, 7],
    'nothing unread: the best by vote (ties by lower doc), then doc 7, third before',
  );
});

t.test('rank: by similarity, and within TIE_WINDOW of the best by longest passage', async (t) => {
  // A 200-character text: covered = 2 × similarity.
  const hit = (track: number, similarity: number, longest: number, length = 200): FingerprintHit =>
    ({ track, commontrack: track, similarity, covered: Math.round((similarity * length) / 100), longest, tracks: [] });
  const ranked = rank([hit(1, 67.2, 36), hit(2, 66.2, 47), hit(3, 80, 20), hit(4, 79, 60), hit(5, 40, 200)]);
  t.same(
    ranked.map((h) => h.track),
    [4, 3, 1, 2, 5],
    '79 with a 60-character passage before 80 with 20; beyond the window by similarity',
  );
  t.equal(TIE_WINDOW, 2);
  const line = rank([hit(1, 100, 25, 50), hit(2, 92, 46, 50), hit(3, 80, 40, 50)]);
  t.same(line.map((h) => h.track), [2, 1, 3], 'a 50-character text: 4 characters fewer but one 46-character passage beats pieces of 25');
  t.same(rank([]), []);
});

t.test('shareEvidence: an answer shares its similarity with those accounting for the query at least as well', async (t) => {
  const hit = (track: number, similarity: number, covered: number, longest: number): FingerprintHit => ({ track, commontrack: track, similarity, covered, longest, tracks: [] });
  const similarities = (hits: FingerprintHit[]) => shareEvidence(hits).map((h) => Math.round(h.similarity * 100) / 100);
  t.same(similarities([hit(1, 100, 40, 40), hit(2, 100, 40, 40), hit(3, 100, 40, 40), hit(4, 100, 40, 40)]), [25, 25, 25, 25], 'four songs with the whole line: a quarter each');
  t.same(similarities([hit(1, 100, 40, 40)]), [100], 'a line one song holds keeps 100');
  t.same(similarities([hit(1, 100, 100, 100), hit(2, 100, 100, 100), hit(3, 94, 94, 94), hit(4, 50, 50, 200)]), [50, 50, 31.33, 50],
    'behind two whole matches, a 94 shares with three; a long passage no one else has keeps its share');
  t.same(similarities([hit(1, 90, 36, 30), hit(2, 90, 36, 20)]), [90, 45], 'the same share, but one has the longer passage');
});

t.test('grams of scripts written without spaces are all kept: six characters make a key', async (t) => {
  t.ok(unspacedAt('夜', 0) && unspacedAt('か', 0) && unspacedAt('ภ', 0) && !unspacedAt('a', 0) && !unspacedAt('й', 0) && !unspacedAt('한', 0));
  const japanese = normalizeText('遠い君の名前');
  t.equal(indexKeys(japanese, new Uint32Array(japanese.length), 24).length, 1, 'two grams, one pair');
  const latin = normalizeText('far away your name');
  t.ok(indexKeys(latin, new Uint32Array(latin.length), 24).length <= 3, 'Latin text keeps one gram in SAMPLE');
  const lyric = normalizeText('夜空に光る星を見上げて遠い君の名前を呼んだ');
  const whole = new Set(indexKeys(lyric, new Uint32Array(lyric.length), 24));
  t.ok([...indexKeys(japanese, new Uint32Array(japanese.length), 24)].every((k) => whole.has(k)), "the quote's key is the lyric's");
});
