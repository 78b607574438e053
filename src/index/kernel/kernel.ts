/**
 * The index's hot loops behind one narrow interface: text normalisation, gram keys, a query's
 * grams for verification, posting-list algebra, vote boards and top-k selection, over typed arrays
 * and the generation's shared buffers. The engines (fingerprint/, text/), the builders and the API
 * reach kernel/ only through this module (`npm run lint` checks it), so another implementation of
 * `Kernel` — the native one native-index/ is for — can take the TypeScript one's place without
 * touching them. The TypeScript implementation (the modules beside this one) stays the reference.
 */
import { hasUnspaced, normalizeName, normalizeText, wordsOf } from './normalize.js';
import { indexKeys } from './grams.js';
import { QueryGrams } from './coverage.js';
import { contains, intersect, lowerBound, seek, union, VoteBoard, type Clause, type Matched } from './posting-ops.js';
import type { PackedList } from '../store/packed.js';
import { TopK } from './topk.js';

export interface Kernel {
  /** Text as the index sees it: decomposed, unaccented, case-folded, punctuation as single spaces. */
  normalizeText(text: string): string;
  /** A title or artist as the matcher and name searches compare it (normalised, transliterated). */
  normalizeName(name: string): string;
  /** The words of a normalised text. */
  wordsOf(normalized: string): string[];
  /** Whether a normalised text's words are exactly its runs between spaces (no unspaced script for wordsOf to cut). */
  spacedWords(normalized: string): boolean;
  /** The fingerprint keys of a normalised text (sampled gram buckets), in `scratch`'s memory. */
  indexKeys(normalized: string, scratch: Uint32Array, bucketBits: number): Uint32Array;
  /** A query's grams, ready to verify candidate lyrics against. */
  queryGrams(normalized: string): QueryGrams;
  /** `a` with the documents of `list` added at `weight`. */
  union(a: Clause, list: PackedList, weight: number): Clause;
  /** The documents in every clause, their weights summed; throws past `deadline` (Date.now() ms). */
  intersect(clauses: Clause[], deadline: number): Matched;
  /** The first position at or after `from` whose value is ≥ `value` (galloping search). */
  lowerBound(list: Uint32Array, value: number, from: number): number;
  /** lowerBound for a value likely far from `from`: searched from where an even spread of the list's values would put it. */
  seek(list: Uint32Array, value: number, from: number): number;
  /** Whether a stored posting list holds `doc`. */
  contains(list: PackedList, doc: number): boolean;
  /** A board counting votes per document, for `docs` documents. */
  voteBoard(docs: number): VoteBoard;
  /** The `k` best of many scored items. */
  topK(k: number): TopK;
}

/** The TypeScript kernel. */
export const tsKernel: Kernel = {
  normalizeText,
  normalizeName,
  wordsOf,
  spacedWords: (normalized) => !hasUnspaced(normalized),
  indexKeys,
  queryGrams: (normalized) => new QueryGrams(normalized),
  union,
  intersect,
  lowerBound,
  seek,
  contains,
  voteBoard: (docs) => new VoteBoard(docs),
  topK: (k) => new TopK(k),
};

/** The kernel every engine uses. */
export const kernel: Kernel = tsKernel;

// What both sides of the interface share: the index format's constants, the deadline's error, and
// the types the kernel's answers have.
export { GRAM, SAMPLE, bucketBitsFor } from './grams.js';
export { pastDeadline } from './deadline.js';
export { weightAt, type Clause, type Matched, type VoteBoard } from './posting-ops.js';
export type { QueryGrams, CoverageResult } from './coverage.js';
export type { TopK } from './topk.js';
