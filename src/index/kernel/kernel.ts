/**
 * The index's hot loops behind one narrow interface: text normalisation, gram keys, the fingerprint's
 * candidate stage and verification, posting-list algebra, track.search's scoring loop, vote boards
 * and top-k selection, over typed arrays and the generation's shared buffers. The engines
 * (fingerprint/, text/), the builders and the API reach kernel/ only through this module (`npm run
 * lint` checks it), so the native kernel (native.ts over native-index/) takes the TypeScript one's
 * place without touching them: `selectKernel` picks by `--engine`. The TypeScript implementation (the
 * modules beside this one) stays the reference, and the native one gives its answers.
 */
import { hasUnspaced, normalizeName, normalizeText, wordsOf } from './normalize.js';
import { indexKeys } from './grams.js';
import { QueryGrams as TsQueryGrams, type CoverageResult } from './coverage.js';
import { contains, holdingEvery, intersect, lowerBound, seek, union, VoteBoard, type Clause, type Matched } from './posting-ops.js';
import type { PackedList } from '../store/packed.js';
import { TopK } from './topk.js';
import { FingerprintVotes, POSTINGS, type CandidateStage, type PostingsLimits } from './votes.js';
import { nativeParts } from './native.js';
import { nativeAddon, nativeStatus } from '../../util/native.js';
import type { LoadedIndex } from '../store/layout.js';
import { rankTracks, type Ranked, type TrackColumns, type TrackRanking } from './rank.js';

/** A query prepared once and compared with many lyrics (kernel/coverage.ts). */
export interface QueryGrams {
  /** Length of the normalised query. */
  readonly length: number;
  /** How much of the query a normalised lyric accounts for. */
  coverage(lyric: string): CoverageResult;
}

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
  /** track.search's scoring loop: the filtered, scored, best `count` of the matched tracks (kernel/rank.ts); throws past `deadline`. */
  rankTracks(columns: TrackColumns, matched: Matched | undefined, ranking: TrackRanking, deadline: number): Ranked;
  /** The fingerprint's candidate stage over an index generation's lists (kernel/votes.ts). */
  candidateStage(index: LoadedIndex, limits?: PostingsLimits): CandidateStage;
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
  /** Of `docs` (ascending), those every one of `lists` holds, ascending. */
  holdingEvery(docs: number[], lists: readonly PackedList[]): number[];
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
  queryGrams: (normalized) => new TsQueryGrams(normalized),
  candidateStage: (index, limits = POSTINGS) => new FingerprintVotes(index, limits),
  rankTracks,
  union,
  intersect,
  lowerBound,
  seek,
  contains,
  holdingEvery,
  voteBoard: (docs) => new VoteBoard(docs),
  topK: (k) => new TopK(k),
};

/** The kernel every engine uses unless it is given another (the TypeScript one; `selectKernel` picks by --engine). */
export const kernel: Kernel = tsKernel;

/** Which kernel answers: `native` (native-index/, C++) or `ts` (the reference). */
export type EngineName = 'native' | 'ts';
/** `--engine`: `auto` is native when the addon loads in this thread, else ts. */
export type EngineChoice = 'auto' | EngineName;

/**
 * The kernel an `--engine` choice selects in this thread: the native one has the fingerprint's
 * candidate stage and verification, the intersection and track.search's scoring loop in C++, and the
 * rest in TypeScript. `why` says why `auto` fell back to ts (for the
 * one warning line) — or, for `native` without the addon, why it cannot be had, and then no kernel.
 */
export function selectKernel(choice: EngineChoice): { kernel?: Kernel; engine: EngineName; why?: string } {
  if (choice === 'ts') return { kernel: tsKernel, engine: 'ts' };
  const addon = nativeAddon();
  if (addon) return { kernel: { ...tsKernel, ...nativeParts(addon) }, engine: 'native' };
  const why = `native addon ${nativeStatus()}`;
  return choice === 'native' ? { engine: 'native', why } : { kernel: tsKernel, engine: 'ts', why };
}

// What both sides of the interface share: the index format's constants, the deadline's error, and
// the types the kernel's answers have.
export { GRAM, SAMPLE, bucketBitsFor } from './grams.js';
export { FIRST, LAST, ORDER_WORDS, holdsEnd, lyricSketch, orderMask } from './order.js';
export { pastDeadline } from './deadline.js';
export { weightAt, type Clause, type Matched, type VoteBoard } from './posting-ops.js';
export type { CoverageResult } from './coverage.js';
export { POSTINGS, MAX_TIED, type Candidate, type Candidates, type CandidateStage, type PostingsLimits } from './votes.js';
export type { TopK } from './topk.js';
export type { Order, Ranked, TrackColumns, TrackRanking } from './rank.js';
