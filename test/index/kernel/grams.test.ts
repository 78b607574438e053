/** Fingerprint features: hashed 5-grams, content-defined sampling, index keys and their buckets. */
import t from 'tap';
import { bucketBitsFor, bucketOf, gramHashes, GRAM, isSampled, indexKeys, SAMPLE, unspacedAt } from '../../../src/index/kernel/grams.js';
import { normalizeText } from '../../../src/index/kernel/normalize.js';

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
