/**
 * Scoring a system's answers. A query is answered correctly at rank k when one of its relevant
 * tracks is among the first k hits, so recall@k here is the share of queries with a relevant track
 * in the top k (one lyric, many tracks: every track of the text counts, any one is enough). MRR is
 * the mean of 1/rank of the first relevant hit (0 when none in the top 10). Errors and timeouts
 * count as misses.
 *
 * On `unrelated` texts (no relevant track) a false positive is an answer a screener would act on:
 * for Refrain, a top similarity at or above the threshold; for the baselines, which have no
 * comparable scale, any answer at all ("top score present").
 */
import type { Ambiguity } from './ambiguity.js';
import type { QueryOutcome } from './evaluate.js';
import { BUCKETS, type Bucket, type Origin, type Query } from './queries.js';

export interface BucketScore {
  n: number;
  recall1: number;
  recall10: number;
  mrr: number;
  errors: number;
  timeouts: number;
  latencyP50: number;
  /** Queries whose excerpt occurs word for word in a track outside the relevant set (ambiguity.ts). */
  ambiguous?: number;
  /** Queries whose excerpt's lines all occur in a track outside the relevant set. */
  linesAmbiguous?: number;
  /** recall@1 over the queries that are not ambiguous (the excerpt is unique to its song). */
  unambiguous?: { n: number; recall1: number };
  /** recall@10 over the ambiguous ones (the excerpt is shared with other songs: is the source among the answers?). */
  shared?: { n: number; recall10: number };
  /** recall@10 over those shared with at most 9 other songs, where the top 10 can hold every song holding the excerpt. */
  sharedFew?: { n: number; recall10: number };
}

export interface UnrelatedScore {
  n: number;
  /** Share of unrelated texts with any hit. */
  anyHit: number;
  /** Share with a top score ≥ the threshold (Refrain's similarity scale only). */
  atThreshold?: number;
  errors: number;
  timeouts: number;
}

export interface SweepRow {
  threshold: number;
  fpRate: number;
  /** recall@1 counting only a top hit with similarity ≥ threshold, per bucket. */
  recall1: Partial<Record<Bucket, number>>;
}

/** A screening rule: flag when the top answer has similarity ≥ `similarity` or longest_match ≥ `longest`. */
export interface RuleScore {
  similarity: number;
  longest: number;
  fpRate: number;
  /** recall@1 counting only a flagged top answer, per bucket. */
  recall1: Partial<Record<Bucket, number>>;
}

export interface Scores {
  buckets: Partial<Record<Bucket, BucketScore>>;
  byOrigin: Partial<Record<Bucket, Partial<Record<Origin, { n: number; recall1: number }>>>>;
  unrelated: UnrelatedScore;
  latency: { p50: number; p99: number; mean: number; max: number };
  errors: number;
  timeouts: number;
  sweep?: SweepRow[];
  /** Refrain's documented screening rule, when its answers carry longest_match. */
  rule?: RuleScore;
}

export const SWEEP_THRESHOLDS = [20, 30, 40, 50, 60, 70, 80, 90];

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** 1-based rank of the first relevant hit, or 0. */
function firstRelevant(q: Query, o: QueryOutcome): number {
  const relevant = new Set(q.relevant);
  const i = o.hits.findIndex((h) => relevant.has(h.trackId));
  return i < 0 ? 0 : i + 1;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const share = (xs: readonly boolean[]): number => mean(xs.map((x) => (x ? 1 : 0)));

export interface ScoreOptions {
  /** Refrain's screening threshold (similarity 0–100). */
  threshold?: number;
  /** With `threshold`: the longest_match (characters) that flags a text too (Refrain's rule). */
  longest?: number;
  sweep: boolean;
  ambiguity?: Ambiguity;
}

export function score(queries: readonly Query[], outcomes: readonly QueryOutcome[], options: ScoreOptions): Scores {
  const buckets: Scores['buckets'] = {};
  const byOrigin: Scores['byOrigin'] = {};
  for (const bucket of BUCKETS) {
    if (bucket === 'unrelated') continue;
    const qs = queries.filter((q) => q.bucket === bucket);
    if (qs.length === 0) continue;
    const ranks = qs.map((q) => firstRelevant(q, outcomes[q.id]));
    const os = qs.map((q) => outcomes[q.id]);
    const entry: BucketScore = {
      n: qs.length,
      recall1: share(ranks.map((r) => r === 1)),
      recall10: share(ranks.map((r) => r >= 1 && r <= 10)),
      mrr: mean(ranks.map((r) => (r ? 1 / r : 0))),
      errors: os.filter((o) => o.error).length,
      timeouts: os.filter((o) => o.timedOut).length,
      latencyP50: percentile(os.map((o) => o.ms).sort((a, b) => a - b), 50),
    };
    const ambiguity = options.ambiguity;
    if (ambiguity) {
      const clear = qs.filter((q) => (ambiguity.phrase.get(q.id) ?? 0) === 0);
      entry.ambiguous = qs.length - clear.length;
      entry.linesAmbiguous = qs.filter((q) => (ambiguity.lines.get(q.id) ?? 0) > 0).length;
      entry.unambiguous = { n: clear.length, recall1: share(clear.map((q) => firstRelevant(q, outcomes[q.id]) === 1)) };
      const shared = qs.filter((q) => (ambiguity.phrase.get(q.id) ?? 0) > 0);
      const inTop10 = (q: Query): boolean => {
        const r = firstRelevant(q, outcomes[q.id]);
        return r >= 1 && r <= 10;
      };
      entry.shared = { n: shared.length, recall10: share(shared.map(inTop10)) };
      const few = shared.filter((q) => (ambiguity.phrase.get(q.id) ?? 0) <= 9);
      entry.sharedFew = { n: few.length, recall10: share(few.map(inTop10)) };
    }
    buckets[bucket] = entry;
    const origins: Partial<Record<Origin, { n: number; recall1: number }>> = {};
    for (const origin of new Set(qs.map((q) => q.origin))) {
      const sub = qs.filter((q) => q.origin === origin);
      origins[origin] = { n: sub.length, recall1: share(sub.map((q) => firstRelevant(q, outcomes[q.id]) === 1)) };
    }
    byOrigin[bucket] = origins;
  }

  const unrelatedQs = queries.filter((q) => q.bucket === 'unrelated');
  const top = (q: Query): number => outcomes[q.id].hits[0]?.score ?? -Infinity;
  const threshold = options.threshold;
  const unrelated: UnrelatedScore = {
    n: unrelatedQs.length,
    anyHit: share(unrelatedQs.map((q) => outcomes[q.id].hits.length > 0)),
    atThreshold: threshold === undefined ? undefined : share(unrelatedQs.map((q) => top(q) >= threshold)),
    errors: unrelatedQs.filter((q) => outcomes[q.id].error).length,
    timeouts: unrelatedQs.filter((q) => outcomes[q.id].timedOut).length,
  };

  const ms = queries.map((q) => outcomes[q.id].ms).sort((a, b) => a - b);
  const result: Scores = {
    buckets,
    byOrigin,
    unrelated,
    latency: { p50: percentile(ms, 50), p99: percentile(ms, 99), mean: mean(ms), max: ms[ms.length - 1] ?? NaN },
    errors: outcomes.filter((o) => o?.error).length,
    timeouts: outcomes.filter((o) => o?.timedOut).length,
  };
  if (options.sweep) {
    result.sweep = SWEEP_THRESHOLDS.map((t) => {
      const recall1: SweepRow['recall1'] = {};
      for (const bucket of Object.keys(buckets) as Bucket[]) {
        const qs = queries.filter((q) => q.bucket === bucket);
        recall1[bucket] = share(qs.map((q) => firstRelevant(q, outcomes[q.id]) === 1 && top(q) >= t));
      }
      return { threshold: t, fpRate: share(unrelatedQs.map((q) => top(q) >= t)), recall1 };
    });
  }
  const longest = options.longest;
  const hasLongest = queries.some((q) => outcomes[q.id].hits[0]?.longestMatch !== undefined);
  if (threshold !== undefined && longest !== undefined && hasLongest) {
    const flagged = (q: Query): boolean => top(q) >= threshold || (outcomes[q.id].hits[0]?.longestMatch ?? -Infinity) >= longest;
    const recall1: RuleScore['recall1'] = {};
    for (const bucket of Object.keys(buckets) as Bucket[]) {
      recall1[bucket] = share(queries.filter((q) => q.bucket === bucket).map((q) => firstRelevant(q, outcomes[q.id]) === 1 && flagged(q)));
    }
    result.rule = { similarity: threshold, longest, fpRate: share(unrelatedQs.map(flagged)), recall1 };
  }
  return result;
}
