/**
 * Word-order sketches (kernel/order.ts): a lyric holding a text whole always has every bit of the
 * text's mask, cut wherever the text is cut and in any script; the same words in another order
 * mostly lack one.
 */
import t from 'tap';
import { generateCatalog } from '../../../src/generate/index.js';
import { holdsOrder, lyricSketch, orderMask, orderSketch, orderTier, ORDER_BITS, ORDER_WORDS } from '../../../src/index/kernel/order.js';
import { normalizeText, wordsOf } from '../../../src/index/kernel/normalize.js';

/** A lyric's sketch as the index build makes it. */
const sketchOf = (normalized: string): Uint32Array => {
  const out = new Uint32Array(ORDER_WORDS);
  lyricSketch(normalized, out, 0);
  return out;
};

/** A small deterministic generator (the tests must not depend on Math.random's draws). */
function randomOf(seed: number): (n: number) => number {
  let x = seed >>> 0;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

const MIXED = [
  'Take me back to Tokyo, 東京タワーの下で the midnight train is calling',
  'Я помню чудное мгновенье: передо мной явилась ты, как мимолётное виденье',
  'ฉันรักเธอมากกว่าใคร and I will sing it 사랑해 사랑해요 forever',
  'Ça ne fait rien, naïve Größe — don’t stop, ﬁnd the ﬁre tonight',
];

t.test('a lyric holds the mask of every passage cut from it, at any character', async (t) => {
  const lyrics = [...generateCatalog({ tracks: 80, seed: 11 }).lines]
    .map((line) => (JSON.parse(line) as { lyrics?: { lyrics_body?: string } }).lyrics?.lyrics_body)
    .filter((body): body is string => typeof body === 'string' && body.length > 100)
    .map(normalizeText);
  lyrics.push(...MIXED.map(normalizeText));
  t.ok(lyrics.length > 40, `${lyrics.length} lyrics`);
  const random = randomOf(5);
  let masks = 0;
  let missed = 0;
  for (const lyric of lyrics) {
    const sketches = sketchOf(lyric);
    for (let i = 0; i < 60; i++) {
      const from = random(lyric.length);
      const to = Math.min(lyric.length, from + 10 + random(120));
      const mask = orderMask(wordsOf(lyric.slice(from, to).trim()));
      if (!mask) continue;
      masks++;
      if (!holdsOrder(sketches, 0, mask)) missed++;
    }
  }
  t.ok(masks > 2000, `${masks} passages with pairs inside them`);
  t.equal(missed, 0, 'none of them lacks a bit');
});

t.test('a lyric\'s sketch read from its text is the sketch of its words, in every script', async (t) => {
  const texts = [
    ...[...generateCatalog({ tracks: 40, seed: 13 }).lines].map((line) => (JSON.parse(line) as { lyrics?: { lyrics_body?: string } }).lyrics?.lyrics_body ?? ''),
    ...MIXED,
    '', 'one', 'two words', '東京', 'a 東 b', '東京タワー tower',
  ].map(normalizeText);
  for (const text of texts) {
    const words = new Uint32Array(ORDER_WORDS);
    orderSketch(wordsOf(text), words, 0);
    t.same(sketchOf(text), words, text.slice(0, 30));
  }
  const out = new Uint32Array(3 * ORDER_WORDS).fill(1);
  lyricSketch(normalizeText('a b c'), out, ORDER_WORDS);
  t.same([...out.subarray(0, ORDER_WORDS)], new Array(ORDER_WORDS).fill(1), 'only its place is written');
});

t.test('a text of fewer than four words has no mask; its first and last words are not in its inner bits', async (t) => {
  t.equal(orderMask([]), undefined);
  t.equal(orderMask(['one', 'two', 'three']), undefined, 'one pair, and that pair has an end word');
  const mask = orderMask(['cut', 'a', 'b', 'off'])!;
  t.equal(mask.length, ORDER_WORDS + 2, 'the inner bits, then the first and the last pair');
  t.same(mask.subarray(0, ORDER_WORDS), sketchOf('a b'), 'only the pair inside');
  t.equal(mask.subarray(0, ORDER_WORDS).reduce((bits, w) => bits + popcount(w), 0), 1, 'one bit a pair');
  t.same(bitsOf(sketchOf('cut a')), [mask[ORDER_WORDS]], 'the first pair');
  t.same(bitsOf(sketchOf('b off')), [mask[ORDER_WORDS + 1]], 'the last pair');
  t.ok(holdsOrder(sketchOf('x a b y'), 0, mask), 'a lyric whose end words differ still holds it');
  t.notOk(holdsOrder(sketchOf('a x b'), 0, mask), 'not one holding both words apart');
});

t.test('orderTier: how much of a text a lyric holds from word to word', async (t) => {
  const text = normalizeText('the night is young and so are we');
  const mask = orderMask(wordsOf(text))!;
  const tier = (lyric: string) => orderTier(sketchOf(normalizeText(lyric)), 0, mask);
  t.equal(tier('oh the night is young and so are we tonight'), 2, 'the whole text');
  t.equal(tier('in the night is young and so are they'), 1, 'its first words, not its last');
  t.equal(tier('a night is young and so are we'), 1, 'its last words, not its first');
  t.equal(tier('a night is young and so are they'), 0, 'only its inner pairs');
  t.equal(tier('the night is young and we are so'), -1, 'its words in another order');
  // A text cut inside its first word is held whole by a lyric of tier 1 at least, at any cut.
  const lyric = sketchOf(normalizeText('so we sang: the night is young and so are we, said the radio'));
  for (let cut = 0; cut < text.length - 20; cut++) {
    const words = wordsOf(text.slice(cut).trim());
    const m = orderMask(words);
    if (m) t.ok(orderTier(lyric, 0, m) >= 1, `cut at ${cut}: ${words.join(' ')}`);
  }
});

t.test('the same words in another order mostly lack a bit; the sketch has ORDER_BITS bits', async (t) => {
  t.equal(ORDER_BITS, ORDER_WORDS * 32);
  const random = randomOf(9);
  const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
  let passed = 0;
  const trials = 2000;
  for (let i = 0; i < trials; i++) {
    const text = Array.from({ length: 10 }, () => vocabulary[random(vocabulary.length)]);
    // A lyric of ~150 pairs holding the text's words, shuffled, among others.
    const lyric = [...Array.from({ length: 140 }, () => vocabulary[random(vocabulary.length)]), ...text];
    for (let j = lyric.length - 1; j > 0; j--) {
      const k = random(j + 1);
      [lyric[j], lyric[k]] = [lyric[k], lyric[j]];
    }
    const sketches = new Uint32Array(ORDER_WORDS);
    orderSketch(lyric, sketches, 0);
    if (holdsOrder(sketches, 0, orderMask(text)!)) passed++;
  }
  // 7 inner pairs, each set by chance with a probability of about 1 − e^(−150/256) ≈ 0.44: ~0.3%.
  t.ok(passed / trials < 0.02, `${passed} of ${trials} shuffled lyrics pass`);
});

t.test('holdsOrder reads a document’s words at its place, and every bit counts, the 32nd included', async (t) => {
  const sketches = new Uint32Array(3 * ORDER_WORDS);
  const mask = new Uint32Array(ORDER_WORDS);
  mask[ORDER_WORDS - 1] = 0x8000_0000;
  t.notOk(holdsOrder(sketches, 2, mask));
  sketches[3 * ORDER_WORDS - 1] = 0x8000_0001;
  t.ok(holdsOrder(sketches, 2, mask), 'the top bit of the last word');
  t.notOk(holdsOrder(sketches, 1, mask), 'not another document’s');
  t.ok(holdsOrder(sketches, 0, new Uint32Array(ORDER_WORDS)), 'an empty mask: every document');
});

/** The bits set in a sketch, ascending. */
function bitsOf(sketch: Uint32Array): number[] {
  const bits: number[] = [];
  for (let b = 0; b < ORDER_BITS; b++) if ((sketch[b >>> 5] >>> (b & 31)) & 1) bits.push(b);
  return bits;
}

function popcount(w: number): number {
  let n = 0;
  for (let v = w >>> 0; v; v >>>= 1) n += v & 1;
  return n;
}
