/**
 * The native kernel's parts (native-index/src/): text normalisation's fast path, the fingerprint's
 * candidate stage and its verification in C++, over the same shared buffers as the TypeScript reference (votes.ts,
 * coverage.ts), giving the same answers. kernel.ts puts them in place of the TypeScript ones when
 * `--engine` selects the native kernel.
 */
import type { NativeAddon, NativeClause, NativeFingerprintVotes, NativeQueryGrams } from '../../util/native.js';
import { PackedList } from '../store/packed.js';
import { pastDeadline } from './deadline.js';
import type { Clause, Matched } from './posting-ops.js';
import type { Ranked, TrackColumns, TrackRanking } from './rank.js';
import { column, type LoadedIndex } from '../store/layout.js';
import { packedShards } from '../store/postings.js';
import type { CoverageResult } from './coverage.js';
import { POSTINGS, type Candidate, type Candidates, type CandidateStage, type PostingsLimits } from './votes.js';
import { NARROW_TABLE, normalizeWide } from './normalize.js';

/** The candidate stage in C++: one call per pass, its answer turned into votes.ts's shapes. */
class NativeCandidateStage implements CandidateStage {
  private readonly stage: NativeFingerprintVotes;

  constructor(addon: NativeAddon, index: LoadedIndex, limits: PostingsLimits) {
    this.stage = new addon.FingerprintVotes({
      docs: column(index, 'fp-docs', 'track', 'u32').length,
      bits: index.manifest.parts.fp.bucketBits,
      limits: [limits.base, limits.basePerKey, limits.budget, limits.budgetPerKey, limits.cap],
      order: column(index, 'fp-docs', 'order', 'u32'),
      shards: packedShards(index, 'fp'),
    });
  }

  candidates(query: string, count: number, scale = 1): Candidates {
    const [pairs, keys, tied, unread] = this.stage.candidates(query, count, scale);
    const candidates: Candidate[] = new Array<Candidate>(pairs.length >>> 1);
    for (let i = 0; i < candidates.length; i++) candidates[i] = { doc: pairs[2 * i], vote: pairs[2 * i + 1] };
    return { candidates, keys, tied, unread };
  }

  tie(order?: Uint32Array): number[] {
    return Array.from(this.stage.tie(order));
  }
}

/** A query's grams in C++ (coverage.ts QueryGrams). */
class NativeGrams {
  private readonly out = new Int32Array(2);
  private readonly grams: NativeQueryGrams;

  constructor(addon: NativeAddon, normalized: string, readonly length = normalized.length) {
    this.grams = new addon.QueryGrams(normalized, this.out);
  }

  coverage(lyric: string): CoverageResult {
    this.grams.coverage(lyric);
    return { covered: this.out[0], longest: this.out[1] };
  }
}

/** A clause as the addon takes it: a stored list by its shard's columns and place, or an array. */
const nativeClause = ({ docs, weights }: Clause): NativeClause => {
  if (!(docs instanceof PackedList)) return [docs, weights];
  const { reader } = docs;
  return [reader.bases, reader.widths, reader.starts, reader.u8, docs.start, docs.length, weights];
};

/** posting-ops.ts holdingEvery, in C++. */
function nativeHoldingEvery(addon: NativeAddon, docs: number[], lists: readonly PackedList[]): number[] {
  if (docs.length === 0) return [];
  return Array.from(addon.holdingEvery(Uint32Array.from(docs), lists.map((list) => nativeClause({ docs: list, weights: 0 }))));
}

/** posting-ops.ts intersect, in C++. */
function nativeIntersect(addon: NativeAddon, clauses: Clause[], deadline: number): Matched {
  const result = addon.intersect(clauses.map(nativeClause), deadline);
  if (result === null) throw pastDeadline();
  return { docs: result[0], weights: result[1] };
}

/** rank.ts rankTracks, in C++. */
function nativeRankTracks(addon: NativeAddon, columns: TrackColumns, matched: Matched | undefined, ranking: TrackRanking, deadline: number): Ranked {
  const result = addon.rankTracks(columns, matched ? matched.docs : null, matched ? matched.weights : 0, ranking, deadline);
  if (result === null) throw pastDeadline();
  return { docs: Array.from(result[0]), available: result[1] };
}

/** The kernel operations the addon does natively. */
export function nativeParts(addon: NativeAddon): {
  normalizeText: (text: string) => string;
  candidateStage: (index: LoadedIndex, limits?: PostingsLimits) => CandidateStage;
  queryGrams: (normalized: string) => NativeGrams;
  intersect: (clauses: Clause[], deadline: number) => Matched;
  holdingEvery: (docs: number[], lists: readonly PackedList[]) => number[];
  rankTracks: (columns: TrackColumns, matched: Matched | undefined, ranking: TrackRanking, deadline: number) => Ranked;
} {
  // normalize.ts's fast path over its own table; the text it does not take goes the TypeScript way.
  const folder = new addon.NarrowFolder(NARROW_TABLE.codes, NARROW_TABLE.multi);
  return {
    normalizeText: (text) => folder.fold(text) ?? normalizeWide(text),
    candidateStage: (index, limits = POSTINGS) => new NativeCandidateStage(addon, index, limits),
    queryGrams: (normalized) => new NativeGrams(addon, normalized),
    intersect: (clauses, deadline) => nativeIntersect(addon, clauses, deadline),
    holdingEvery: (docs, lists) => nativeHoldingEvery(addon, docs, lists),
    rankTracks: (columns, matched, ranking, deadline) => nativeRankTracks(addon, columns, matched, ranking, deadline),
  };
}
