/**
 * The index service of a running server: the current generation loaded into SharedArrayBuffers, a
 * fixed piscina pool of workers that query it (warmed before the server listens), a deadline on
 * every task and a queue bounded by count and estimated cost that refuses what cannot finish in
 * time (work-queue.ts), and the matcher's one entry point. The generation watch (generations.ts)
 * builds and swaps in a new generation when the catalog changes, without failing or blocking a
 * query (docs/index.md).
 */
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { Catalog } from '../../catalog/store.js';
import { isWireError, RefrainError, type WireError } from '../../errors.js';
import { buildIndex, isCurrent, removeStaleGenerations } from './build.js';
import { siblingModule } from '../../util/one-shot-worker.js';
import { GenerationWatch } from './generations.js';
import { currentGeneration, handleOf, loadCurrentGeneration, type IndexHandle, type LoadedIndex } from '../store/layout.js';
import { NEEDS_INDEX, type IndexQueries, type PoolWorkerData, type Task, type TaskEnvelope, type TaskResult } from './task.js';
import type { FingerprintHit } from '../fingerprint/search.js';
import type { ArtistQuery, MatchQuery, MatchResult, SearchResult, TrackQuery } from '../text/search.js';
import { TextIndex } from '../text/text-index.js';
import { preciseMatch } from '../text/matcher.js';
import { kernel, type EngineName } from '../kernel/kernel.js';
import { WorkQueue, type QueueSnapshot, type WorkQueueStats } from './work-queue.js';
import type { CallKind, IndexFront } from './front.js';

export interface IndexServiceOptions {
  dataDir: string;
  catalog: Catalog;
  logger: Logger;
  threads: number;
  /** The kernel the workers answer with (resolved: kernel.ts selectKernel); ts when not given. */
  engine?: EngineName;
  /** Tasks waiting for a worker at most; more are refused with 503. */
  queue: number;
  /** Estimated cost (characters of text) of the tasks waiting at most; more is refused with 503. */
  queueCost: number;
  /** Milliseconds a task may take, queueing included. */
  deadlineMs: number;
  /** How often to look for a new generation or catalog changes, ms. */
  pollMs?: number;
  /**
   * Modules `call` sends tasks to: warmed with the index (a `warm` task each), so that no client's
   * first request pays for loading them in a worker.
   */
  preload?: URL[];
}

const WORKER = siblingModule(import.meta.url, 'worker');

/** What /readyz and /metrics show of the index: its generation, and the queue's refusals as the queue counts them. */
export interface IndexStats extends Pick<WorkQueueStats, 'rejectedBusy' | 'rejectedDeadline'> {
  generation: number;
  bytes: number;
  lyrics: number;
  tracks: number;
  /** Tasks waiting or running. */
  inFlight: number;
  /** The kernel the workers answer with. */
  engine: EngineName;
}

/**
 * Estimated cost of a task in characters of text, for the queue's cost bound and run-time estimates:
 * a fingerprint's text length (its work grows with it); a search or match counts as SEARCH_COST.
 */
const SEARCH_COST = 1000;
/** Match results kept per generation and catalog state. */
const MATCH_CACHE_SIZE = 50_000;
const costOf = (task: Task): number => (task.op === 'fingerprint' ? task.text.length : SEARCH_COST);

/** The file path of a call's module (converted once per module: see the pool's filename). */
const paths = new Map<string, string>();
function pathOf(module: URL): string {
  let path = paths.get(module.href);
  if (path === undefined) paths.set(module.href, (path = fileURLToPath(module)));
  return path;
}

export type { CallKind } from './front.js';

/** Emits `generation` (its number) after a new generation is swapped in. */
export class IndexService extends EventEmitter implements IndexQueries, IndexFront {
  private index!: LoadedIndex;
  /** What tasks carry of the current generation (computed once per generation). */
  private handle!: IndexHandle;
  /** Match results of one generation and catalog state (`version`), oldest dropped first past MATCH_CACHE_SIZE. */
  private matches: { version: string; results: Map<string, MatchResult> } = { version: '', results: new Map() };
  /** The current generation's text index, for the work done on this thread (the precise match). */
  private text!: TextIndex;
  private readonly pool: Piscina<TaskEnvelope, TaskResult>;
  /** Keeps the generation current (set once the first one is loaded and warm). */
  private watch?: GenerationWatch;
  /**
   * Waiting tasks and admission. Kept here rather than by piscina's maxQueue: the pool gets one task
   * per worker, so a task past its deadline is answered when it passes and never handed to a worker.
   */
  private readonly queue: WorkQueue;

  private constructor(private readonly options: IndexServiceOptions) {
    super();
    this.queue = new WorkQueue({ slots: options.threads, maxQueued: options.queue, maxQueuedCost: options.queueCost, deadlineMs: options.deadlineMs });
    this.pool = new Piscina<TaskEnvelope, TaskResult>({
      // Paths, not file URLs: piscina parses a URL back into a path on every task (~5 µs).
      filename: fileURLToPath(WORKER),
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Infinity,
      atomics: 'sync',
      workerData: { dataDir: options.dataDir, engine: options.engine ?? 'ts' } satisfies PoolWorkerData,
    });
  }

  /**
   * Loads the current generation (building one first when there is none) and warms every worker.
   * A generation older than the catalog is served while a fresh one builds in the background.
   */
  static async start(options: IndexServiceOptions): Promise<IndexService> {
    const service = new IndexService(options);
    try {
      const removed = removeStaleGenerations(options.dataDir);
      if (removed.length) options.logger.info({ removed }, 'removed unfinished index generations of builds that did not finish');
      if (!currentGeneration(options.dataDir)) {
        options.logger.info('no index yet: building it before listening');
        const report = await buildIndex(options.dataDir);
        options.logger.info({ seconds: report.seconds, lyrics: report.lyrics, tracks: report.tracks, bytes: report.bytes }, 'index built');
      }
      const loaded = await loadCurrentGeneration(options.dataDir);
      if (!loaded) throw new Error(`no index generation in ${options.dataDir} after building one`);
      service.use(loaded);
      await service.warm(true);
    } catch (e) {
      await service.pool.destroy();
      throw e;
    }
    const { dataDir, catalog, logger } = options;
    service.watch = new GenerationWatch(
      { dataDir, catalog, logger, pollMs: options.pollMs ?? 1000, serving: () => service.index, swapIn: (next) => service.swapIn(next) },
      !isCurrent(dataDir, catalog),
    );
    return service;
  }

  /** The pool's workers. */
  get threads(): number {
    return this.options.threads;
  }

  /** The queue's state in shared memory, for other threads' pre-checks (remote.ts). */
  get queueSnapshot(): QueueSnapshot {
    return this.queue.snapshot;
  }

  get generation(): number {
    return this.index.manifest.generation;
  }

  get stats(): IndexStats {
    const m = this.index.manifest;
    const q = this.queue.stats;
    return {
      generation: m.generation, bytes: m.stats.bytes ?? 0, lyrics: m.parts.fp?.docs ?? 0, tracks: m.parts.text?.tracks ?? 0,
      inFlight: q.queued + q.running, rejectedBusy: q.rejectedBusy, rejectedDeadline: q.rejectedDeadline, engine: this.options.engine ?? 'ts',
    };
  }

  /**
   * Throws the 503 a fingerprint of about `chars` characters would get now, so the request is
   * refused before its body is read (under overload, refusals are most of the traffic).
   */
  admitFingerprint(chars: number): void {
    this.queue.check('fingerprint', chars);
  }

  /** Counts `n` texts of a batch task answered 503 because the task's deadline passed (metrics). */
  countDeadline(n: number): void {
    this.queue.countDeadline(n);
  }

  fingerprint(text: string, size: number): Promise<FingerprintHit[]> {
    return this.run({ op: 'fingerprint', text, size }) as Promise<FingerprintHit[]>;
  }

  searchTracks(query: TrackQuery): Promise<SearchResult> {
    return this.run({ op: 'tracks', query }) as Promise<SearchResult>;
  }

  searchArtists(query: ArtistQuery): Promise<SearchResult> {
    return this.run({ op: 'artists', query }) as Promise<SearchResult>;
  }

  /**
   * Runs `payload` in a pool worker through `module` (a file URL), which answers from the engines of
   * the generation current now (worker.ts `enginesOf`), under the same queue, deadline and shedding
   * as the index's own tasks: the API's methods that answer from the index run there whole, so the
   * HTTP thread only authenticates, admits and writes (docs/design.md §2).
   */
  call(module: URL, kind: CallKind, payload: unknown): Promise<unknown> {
    const cost = kind.kind === 'fingerprint' ? kind.chars : SEARCH_COST;
    return this.run({ op: 'call', payload }, { module, kind: kind.kind, cost });
  }

  /**
   * The matcher's one entry point. A result of the current generation and catalog state comes from
   * the cache (`cached`); else the precise stage runs here (a few microseconds: cheaper than the
   * hand-off), the others in a worker when it finds nothing (or every stage there, when the precise
   * one would read too many tracks for this thread).
   */
  async match(query: MatchQuery): Promise<MatchResult & { cached: boolean }> {
    const version = `${this.generation}:${this.options.catalog.lastChange()}`;
    if (this.matches.version !== version) this.matches = { version, results: new Map() };
    const { results } = this.matches;
    const key = `${kernel.normalizeName(query.title)}\u0000${kernel.normalizeName(query.artist)}`;
    const known = results.get(key);
    if (known) return { ...known, cached: true };
    let result = preciseMatch(this.text, this.options.catalog, query);
    if (!result || result === 'unsure') result = (await this.run({ op: 'match', query, afterPrecise: result === undefined })) as MatchResult;
    if (results.size >= MATCH_CACHE_SIZE) results.delete(results.keys().next().value as string);
    results.set(key, result);
    return { ...result, cached: false };
  }

  /** Resolves once no build or load is running (a build's end starts the load of its generation). */
  async idle(): Promise<void> {
    await this.watch?.idle();
  }

  async close(): Promise<void> {
    await this.watch?.close();
    this.queue.close();
    await this.pool.destroy();
  }

  /** `call`: the worker module answering a call task, and its kind and cost for the queue. */
  private run(task: Task, call?: { module: URL; kind: string; cost: number }): Promise<TaskResult> {
    // Warming is no client's request: a worker still starting must not fail it, nor is it refused.
    const deadline = task.op === 'warm' ? Infinity : Date.now() + this.options.deadlineMs;
    // The handle of the generation named, even if another is swapped in before the task runs.
    const handle = this.handle;
    const envelope: TaskEnvelope = { generation: handle.id, deadline, task };
    const filename = call && pathOf(call.module);
    return this.queue.submit({ kind: call?.kind ?? task.op, cost: call?.cost ?? costOf(task), deadline, run: () => this.send(envelope, handle, filename) });
  }

  /**
   * Runs a task on a worker (through `filename`, a module other than the index worker's). A running
   * task checks its deadline as it goes (and a worker refuses one already past it). A worker new to
   * the generation asks for its handle once.
   */
  private async send(envelope: TaskEnvelope, handle: IndexHandle, filename?: string): Promise<TaskResult> {
    const options = filename === undefined ? undefined : { filename };
    let result = (await this.pool.run(envelope, options)) as TaskResult | WireError;
    if (result === NEEDS_INDEX) result = (await this.pool.run({ ...envelope, index: handle }, options)) as TaskResult | WireError;
    if (!isWireError(result)) return result;
    const e = RefrainError.fromWire(result);
    throw e.code === 'deadline' ? this.queue.deadlineError() : e;
  }

  private use(index: LoadedIndex): void {
    this.index = index;
    this.handle = handleOf(index);
    this.text = new TextIndex(index);
  }

  /** `modules`: also the preload modules (at start; a new generation finds them loaded). */
  private async warm(modules = false): Promise<void> {
    const targets = [undefined, ...(modules ? (this.options.preload ?? []) : [])];
    // A module's first warm task loads it (100+ ms): a kind of its own, so the queue's estimate of
    // the index's warm tasks (and the wait it predicts for clients during a swap) stays theirs.
    const warm = (module?: URL) => this.run({ op: 'warm' }, module && { module, kind: 'warm-module', cost: SEARCH_COST });
    await Promise.all(targets.flatMap((module) => Array.from({ length: this.options.threads * 2 }, () => warm(module))));
  }

  /** Serves `next` from now on, once every worker has it warm. */
  private async swapIn(next: LoadedIndex): Promise<void> {
    const previous = this.index;
    this.use(next);
    await this.warm();
    this.options.logger.info({ generation: next.manifest.generation, previous: previous.manifest.generation }, 'index generation swapped in');
    this.emit('generation', next.manifest.generation);
  }
}
