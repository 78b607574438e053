/**
 * Word order (docs/index.md, "Ties larger than the candidates"): each fingerprint document keeps a
 * small sketch of the pairs of consecutive words in its lyric, ORDER_BITS bits set by hash, one bit
 * per pair. A lyric that holds a text whole holds every pair of consecutive words inside it (the
 * first and the last word excepted: an excerpt may cut them), so its sketch has every bit of the
 * text's pairs. Lyrics that hold the same words and the same sampled keys in another order (a stock
 * line each song continues its own way) mostly miss one: the candidate stage drops those from a
 * tie before any lyric is read.
 *
 * Bits, measured on the first 20,000 lyrics of the generated 1M catalog (2026-11-28): a median of
 * 160 distinct pairs, which set 46% of the 256 bits (p90 56%). So one pair of a text passes a lyric
 * that does not hold it about 46% of the time, and the seven inner pairs of a 50-character excerpt
 * about 0.4% of the time. The real-text corpora's lyrics are shorter (a median of 7–22 pairs, 3–8%
 * of the bits). One bit per pair (not two) is what that density favours.
 */

import { hasUnspaced, wordsOf } from './normalize.js';
import { pairHash } from './grams.js';

/** Bits of a document's sketch… */
export const ORDER_BITS = 256;
/** …in this many 32-bit words (the `order` column of `fp-docs` holds ORDER_WORDS per document). */
export const ORDER_WORDS = ORDER_BITS / 32;
/** orderMask's place of the first pair's bit, and of the last pair's. */
export const FIRST = ORDER_WORDS;
export const LAST = ORDER_WORDS + 1;

/** FNV-1a's start and multiplier: a word's hash is FNV-1a of its UTF-16 units. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function wordHash(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** Sets, in the sketch at `out[at …]`, the bit of a pair of consecutive words given by their hashes. */
function setPair(out: Uint32Array, at: number, first: number, second: number): void {
  const bit = pairBit(first, second);
  out[at + (bit >>> 5)] |= 1 << (bit & 31);
}

const pairBit = (first: number, second: number): number => pairHash(first, second) % ORDER_BITS;

/**
 * Sets the bits of every pair of consecutive `words` in `out[at .. at + ORDER_WORDS)` (bits already
 * set stay).
 */
export function orderSketch(words: readonly string[], out: Uint32Array, at: number): void {
  let previous = words.length > 0 ? wordHash(words[0]) : 0;
  for (let i = 1; i < words.length; i++) {
    const h = wordHash(words[i]);
    setPair(out, at, previous, h);
    previous = h;
  }
}

/**
 * A lyric's sketch, from its normalised text, in `out[at …]`: orderSketch of `wordsOf(normalized)`.
 * Without a script written without spaces (which `wordsOf` cuts into pairs of characters) its words
 * are its runs between spaces, hashed where they lie: making the array of a 1.4 KB lyric's words
 * cost about as much as its fingerprint keys.
 */
export function lyricSketch(normalized: string, out: Uint32Array, at: number): void {
  if (hasUnspaced(normalized)) {
    orderSketch(wordsOf(normalized), out, at);
    return;
  }
  // normalized.split(' '), word by word: every space ends one.
  let previous = 0;
  let h = FNV_OFFSET;
  let first = true;
  for (let i = 0; i <= normalized.length; i++) {
    const c = i < normalized.length ? normalized.charCodeAt(i) : 0x20;
    if (c !== 0x20) {
      h = Math.imul(h ^ c, FNV_PRIME);
      continue;
    }
    h >>>= 0;
    if (!first) setPair(out, at, previous, h);
    first = false;
    previous = h;
    h = FNV_OFFSET;
  }
}

/**
 * What a lyric holding the whole text must have in its sketch, ORDER_WORDS + 2 words: the bits of
 * the pairs inside the text (its words but the first and the last, which an excerpt may cut), then
 * the bits of its first pair and of its last pair (a lyric holding those too holds the text from
 * word to word: orderTier). Undefined when the text has fewer than four words (no inner pair).
 */
export function orderMask(words: readonly string[]): Uint32Array | undefined {
  const inner = words.slice(1, -1);
  if (inner.length < 2) return undefined;
  const mask = new Uint32Array(ORDER_WORDS + 2);
  orderSketch(inner, mask, 0);
  const n = words.length;
  mask[FIRST] = pairBit(wordHash(words[0]), wordHash(words[1]));
  mask[LAST] = pairBit(wordHash(words[n - 2]), wordHash(words[n - 1]));
  return mask;
}

/** Whether document `doc`'s sketch in `sketches` has every inner bit of `mask` (orderMask). */
export function holdsOrder(sketches: Uint32Array, doc: number, mask: Uint32Array): boolean {
  const at = doc * ORDER_WORDS;
  // A bit of the mask the sketch lacks (not `(s & m) !== m`: `&` gives a signed number, the array's words are unsigned).
  for (let i = 0; i < ORDER_WORDS; i++) if ((mask[i] & ~sketches[at + i]) !== 0) return false;
  return true;
}

/**
 * How much of a text's word order document `doc` holds: -1 when it lacks an inner pair (it cannot
 * hold the text whole), else how many of the first and the last pair it holds too (0–2). A lyric
 * holding the text whole is of tier 2 when the text's first and last words are whole, of tier 1 at
 * least when one of them is cut, and may be of tier 0 when both are.
 */
export function orderTier(sketches: Uint32Array, doc: number, mask: Uint32Array): number {
  if (!holdsOrder(sketches, doc, mask)) return -1;
  return holdsEnd(sketches, doc, mask, FIRST) + holdsEnd(sketches, doc, mask, LAST);
}

/** 1 when document `doc`'s sketch has the bit of the text's first (`end` FIRST) or last (LAST) pair, else 0. */
export function holdsEnd(sketches: Uint32Array, doc: number, mask: Uint32Array, end: typeof FIRST | typeof LAST): number {
  const bit = mask[end];
  return (sketches[doc * ORDER_WORDS + (bit >>> 5)] >>> (bit & 31)) & 1;
}
