/**
 * What the index service (pool.ts) and its workers (worker.ts) exchange: the tasks, their envelope
 * and the answers. Kept apart from worker.ts, whose module state only a worker thread may load.
 */
import type { IndexHandle } from '../store/layout.js';
import type { FingerprintHit } from '../fingerprint/search.js';
import type { ArtistQuery, MatchQuery, MatchResult, SearchResult, TrackQuery } from '../text/search.js';

export type Task =
  | { op: 'warm' }
  | { op: 'fingerprint'; text: string; size: number }
  | { op: 'tracks'; query: TrackQuery }
  | { op: 'artists'; query: ArtistQuery }
  /** `afterPrecise`: the main thread ran the precise stage and found nothing. */
  | { op: 'match'; query: MatchQuery; afterPrecise?: boolean };

/** What the pool's workers are started with. */
export interface PoolWorkerData {
  dataDir: string;
}

export interface TaskEnvelope {
  /** The generation to query (LoadedIndex.id). */
  generation: number;
  /**
   * Its shared buffers and manifest: sent only when a worker answered NEEDS_INDEX, because cloning
   * them costs every task tens of microseconds.
   */
  index?: IndexHandle;
  /** Date.now() after which the task gives up (a `deadline` RefrainError), even before it starts. */
  deadline: number;
  task: Task;
}

/** A worker's answer to a task naming a generation it holds no views of: resend with the handle. */
export const NEEDS_INDEX = 'needs-index';

export type TaskResult = FingerprintHit[] | SearchResult | MatchResult | { warmed: true } | typeof NEEDS_INDEX;

