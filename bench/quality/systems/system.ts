/**
 * What the bench needs of a system under test: load the catalog's lyrics (or attach to a loaded
 * copy), answer one text with up to 10 ranked tracks, and stop. Scores are the system's own (Refrain:
 * similarity 0–100; pg_trgm: word_similarity 0–1; FTS5: −bm25; MiniSearch: its score).
 */

export interface Hit {
  trackId: number;
  score: number;
  /** Refrain's `longest_match`: the longest passage of the query found in the lyric (characters). */
  longestMatch?: number;
}

export interface Answer {
  hits: Hit[];
  /** The query gave up (a timeout): counted as a miss and reported. */
  timedOut?: boolean;
}

export interface LoadReport {
  /** Seconds to make the system ready to answer (build or attach), as measured in this run. */
  seconds: number;
  /** What the seconds cover, e.g. "COPY 12 s + GIN index 40 s (built 2026-…)". */
  detail: string;
  /** The load was done by an earlier run and reused. */
  cached: boolean;
}

export interface SearchSystem {
  readonly name: string;
  /** Queries in flight at once during the measured run. */
  readonly concurrency: number;
  /** Settings worth printing with the results. */
  readonly settings: string;
  /** Run only this many queries per bucket (a balanced subsample) when the system is too slow for all. */
  readonly perBucketLimit?: number;
  load(): Promise<LoadReport>;
  search(text: string): Promise<Answer>;
  close(): Promise<void>;
}

/** A system that could not be run, and why (reported instead of results). */
export class SystemFailure extends Error {}
