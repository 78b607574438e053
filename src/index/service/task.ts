/**
 * What the index service (pool.ts) and its workers (worker.ts) exchange: the tasks, their envelope
 * and the answers. Kept apart from worker.ts, whose module state only a worker thread may load.
 */
import type { EngineName } from '../kernel/kernel.js';
import type { IndexHandle } from '../store/layout.js';
import type { FingerprintHit } from '../fingerprint/search.js';
import type { ArtistQuery, MatchQuery, MatchResult, SearchResult, TrackQuery } from '../text/search.js';

export type Task =
  | { op: 'warm' }
  | { op: 'fingerprint'; text: string; size: number }
  | { op: 'tracks'; query: TrackQuery }
  | { op: 'artists'; query: ArtistQuery }
  /** `afterPrecise`: the main thread ran the precise stage and found nothing. */
  | { op: 'match'; query: MatchQuery; afterPrecise?: boolean }
  /**
   * Work of another module loaded in the pool's workers (IndexService.call), which queries the
   * engines of the envelope's generation itself (worker.ts `enginesOf`): the API's methods that
   * answer from the index run there whole.
   */
  | { op: 'call'; payload: unknown };

/** What the pool's workers are started with. */
export interface PoolWorkerData {
  dataDir: string;
  /** The kernel the workers answer with (the server chose it: --engine). */
  engine: EngineName;
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

/**
 * The index's queries as an API method asks them: on the main thread through the pool
 * (IndexService), inside a pool worker straight from its engines.
 */
export interface IndexQueries {
  fingerprint(text: string, size: number): FingerprintHit[] | Promise<FingerprintHit[]>;
  searchTracks(query: TrackQuery): SearchResult | Promise<SearchResult>;
  searchArtists(query: ArtistQuery): SearchResult | Promise<SearchResult>;
}

