/**
 * The native kernel's parts (native-index/src/fingerprint.cc): the fingerprint's candidate stage and
 * its verification in C++, over the same shared buffers as the TypeScript reference (votes.ts,
 * coverage.ts), giving the same answers. kernel.ts puts them in place of the TypeScript ones when
 * `--engine` selects the native kernel.
 */
import type { NativeAddon, NativeFingerprintVotes, NativeQueryGrams } from '../../util/native.js';
import { column, type LoadedIndex } from '../store/layout.js';
import { packedShards } from '../store/postings.js';
import type { CoverageResult } from './coverage.js';
import { POSTINGS, type Candidate, type Candidates, type CandidateStage, type PostingsLimits } from './votes.js';

/** The candidate stage in C++: one call per pass, its answer turned into votes.ts's shapes. */
class NativeCandidateStage implements CandidateStage {
  private readonly stage: NativeFingerprintVotes;

  constructor(addon: NativeAddon, index: LoadedIndex, limits: PostingsLimits) {
    this.stage = new addon.FingerprintVotes({
      docs: column(index, 'fp-docs', 'track', 'u32').length,
      bits: index.manifest.parts.fp.bucketBits,
      limits: [limits.base, limits.basePerKey, limits.budget, limits.budgetPerKey, limits.cap],
      shards: packedShards(index, 'fp'),
    });
  }

  candidates(query: string, count: number, scale = 1): Candidates {
    const [pairs, keys, tied, unread] = this.stage.candidates(query, count, scale);
    const candidates: Candidate[] = new Array<Candidate>(pairs.length >>> 1);
    for (let i = 0; i < candidates.length; i++) candidates[i] = { doc: pairs[2 * i], vote: pairs[2 * i + 1] };
    return { candidates, keys, tied: Array.from(tied), unread };
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

/** The kernel operations the addon does natively. */
export function nativeParts(addon: NativeAddon): {
  candidateStage: (index: LoadedIndex, limits?: PostingsLimits) => CandidateStage;
  queryGrams: (normalized: string) => NativeGrams;
} {
  return {
    candidateStage: (index, limits = POSTINGS) => new NativeCandidateStage(addon, index, limits),
    queryGrams: (normalized) => new NativeGrams(addon, normalized),
  };
}
