/**
 * The feed schedule of a running server: a full feed every `fullEvery` seconds (default daily), an
 * incremental one every `incrementalEvery` (default hourly), each followed by pruning. The first
 * start builds a full feed at once, so tracks.dump.get never lists nothing for long. Due times come
 * from the feeds' `created` (in LMDB), so a restart keeps the rhythm instead of rebuilding.
 *
 * A large catalog's feed is written by a worker thread (worker.ts): minutes of CPU that must not
 * hold up requests. A small one is written on this thread, in chunks of ~256 KB of lines between
 * which requests run: a worker costs ~40 ms to start in the built server (over a second under the
 * test runner's TypeScript loader), more than a 10,000-track feed takes.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Catalog } from '../catalog/store.js';
import { writeFeed, type BuildRequest, type FeedKind } from './build.js';
import { tryLock } from '../util/lock-file.js';
import { oneShotWorker, siblingModule, type OneShot } from '../util/one-shot-worker.js';
import { pruneFeeds } from './prune.js';
import { buildLockFile, type FeedMeta, type FeedStore } from './store.js';

export interface ScheduleOptions {
  /** Seconds between full feeds. */
  fullEvery: number;
  /** Seconds between incremental feeds. */
  incrementalEvery: number;
  /** Seconds a superseded feed is kept (prune.ts). */
  retention: number;
  /** Catalogs with more tracks are written by a worker thread. */
  inProcessMaxTracks?: number;
}

export interface ScheduleDeps {
  dataDir: string;
  catalog: Catalog;
  store: FeedStore;
  logger: Logger;
  clock: () => number;
  options: ScheduleOptions;
}

/** When a build was last attempted without producing a feed (nothing changed), per kind, ms. */
export type Checked = Record<FeedKind, number>;

/** The next feed to build and when (ms; 0 = now), from the latest feeds (pure). */
export function nextBuild(latestFull: FeedMeta | undefined, latest: FeedMeta | undefined, checked: Checked, options: ScheduleOptions): { kind: FeedKind; at: number } {
  if (!latestFull || !latest) return { kind: 'full', at: 0 };
  const fullAt = Math.max(Date.parse(latestFull.created), checked.full) + options.fullEvery * 1000;
  const incrementalAt = Math.max(Date.parse(latest.created), checked.incremental) + options.incrementalEvery * 1000;
  return fullAt <= incrementalAt ? { kind: 'full', at: fullAt } : { kind: 'incremental', at: incrementalAt };
}

const WORKER = siblingModule(import.meta.url, 'worker');
const IN_PROCESS_MAX_TRACKS = 10_000;
/** Timers re-plan at least this often (ms), so a clock moved by tests or NTP is noticed. */
const MAX_WAIT_MS = 3_600_000;
/** After a failure, or while another process builds, try again after this long (ms). */
const RETRY_MS = 60_000;

/** Emits `feed` (FeedMeta) after each feed it builds. */
export class FeedSchedule extends EventEmitter {
  private timer?: NodeJS.Timeout;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly checked: Checked = { full: 0, incremental: 0 };
  private retryAt = 0;
  private worker?: OneShot<FeedMeta | null>;
  private readonly abort = new AbortController();

  constructor(private readonly deps: ScheduleDeps) {
    super();
  }

  start(): void {
    this.plan();
  }

  /**
   * Build a feed now (the schedule's own path: lock, build, record, prune). Undefined when nothing
   * changed since the latest feed or another process holds the lock.
   */
  build(kind: FeedKind): Promise<FeedMeta | undefined> {
    const run = this.queue.then(() => this.run(kind));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves when no build is running or queued. */
  async idle(): Promise<void> {
    await this.queue;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.abort.abort();
    await this.worker?.terminate();
    await this.queue;
  }

  private plan(): void {
    if (this.abort.signal.aborted) return;
    clearTimeout(this.timer);
    const { store, clock } = this.deps;
    store.refresh();
    const next = nextBuild(store.current()[0], store.latest(), this.checked, this.deps.options);
    const wait = Math.max(next.at, this.retryAt) - clock();
    if (wait > 0) {
      this.timer = setTimeout(() => this.plan(), Math.min(wait, MAX_WAIT_MS)).unref();
      return;
    }
    this.build(next.kind).then(
      () => this.plan(),
      (err: unknown) => {
        if (this.abort.signal.aborted) return; // the server closed mid-build
        this.deps.logger.error({ err, kind: next.kind }, 'building a feed failed; retrying in a minute');
        this.retryAt = clock() + RETRY_MS;
        this.plan();
      },
    );
  }

  private async run(kind: FeedKind): Promise<FeedMeta | undefined> {
    const { dataDir, catalog, store, logger, clock, options } = this.deps;
    if (this.abort.signal.aborted) return undefined;
    const release = tryLock(buildLockFile(dataDir));
    if (!release) {
      logger.info({ kind }, 'another process is building a feed; trying again in a minute');
      this.retryAt = clock() + RETRY_MS;
      return undefined;
    }
    try {
      const now = clock();
      catalog.refresh();
      store.refresh();
      const latest = store.latest();
      // A full feed equal to the latest one would only cost a catalog scan.
      if (kind === 'full' && latest?.full && latest.toSeq >= catalog.lastChange()) {
        this.checked.full = now;
        return undefined;
      }
      const started = performance.now();
      const request: BuildRequest = { kind, now };
      const inProcess = catalog.trackCount() <= (options.inProcessMaxTracks ?? IN_PROCESS_MAX_TRACKS);
      const meta = inProcess ? await writeFeed(dataDir, catalog, request, { signal: this.abort.signal }) : await this.inWorker(request);
      if (meta) {
        await store.add(meta);
        logger.info({ feed: meta, seconds: (performance.now() - started) / 1000 }, 'feed built');
      } else this.checked[kind] = now;
      const pruned = await pruneFeeds(dataDir, store, now, options.retention);
      if (pruned.length) logger.info({ ids: pruned.map((f) => f.id) }, 'feeds past retention removed');
      if (meta) this.emit('feed', meta);
      return meta;
    } finally {
      release();
    }
  }

  private async inWorker(request: BuildRequest): Promise<FeedMeta | undefined> {
    this.abort.signal.throwIfAborted(); // closed while this build waited
    this.worker = oneShotWorker<FeedMeta | null>(WORKER, { dataDir: this.deps.dataDir, request }, 'feed build');
    try {
      return (await this.worker.result) ?? undefined;
    } finally {
      this.worker = undefined;
    }
  }
}
