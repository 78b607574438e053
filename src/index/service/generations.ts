/**
 * The watch that keeps a running server's index current: each second it looks for a generation
 * newer than the one served (built by `refrain index` or by this watch) and loads it, and for catalog
 * changes that settled without one, which it builds in a worker thread while the server keeps
 * answering from the generation it has (docs/index.md, "Segments, generations, loading").
 */
import type { Logger } from 'pino';
import type { Catalog } from '../../catalog/store.js';
import { oneShotWorker, siblingModule } from '../../util/one-shot-worker.js';
import { currentGeneration, loadGenerationAsync, superseded, type LoadedIndex } from '../store/layout.js';

const BUILD_WORKER = siblingModule(import.meta.url, 'build-worker');

export interface GenerationWatchOptions {
  dataDir: string;
  catalog: Catalog;
  logger: Logger;
  /** How often to look, ms. */
  pollMs: number;
  /** The generation served now (its directory and the catalog change it was built from). */
  serving: () => LoadedIndex;
  /** Puts a loaded generation into service (the pool swaps it in and warms its workers). */
  swapIn: (next: LoadedIndex) => Promise<void>;
}

export class GenerationWatch {
  private readonly timer: NodeJS.Timeout;
  private building?: Promise<void>;
  private loading?: Promise<void>;
  /** Catalog change seen at the previous look: a build starts once changes have settled. */
  private lastSeen: number;
  private closed = false;

  /** Starts watching; `rebuildNow` when the generation served is already older than the catalog. */
  constructor(
    private readonly options: GenerationWatchOptions,
    rebuildNow: boolean,
  ) {
    this.lastSeen = options.catalog.lastChange();
    this.timer = setInterval(() => this.poll(), options.pollMs);
    this.timer.unref();
    if (rebuildNow) this.rebuild();
  }

  /** Resolves once no build or load is running (a build's end starts the load of its generation). */
  async idle(): Promise<void> {
    while (this.building || this.loading) await (this.building ?? this.loading);
  }

  /** Stops looking, once what is running has finished. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.idle();
  }

  private poll(): void {
    if (this.closed) return;
    const { dataDir, catalog } = this.options;
    const serving = this.options.serving();
    const dir = currentGeneration(dataDir);
    if (dir && dir !== serving.dir && !this.loading) this.loading = this.load(dir).finally(() => (this.loading = undefined));
    catalog.refresh();
    const seq = catalog.lastChange();
    const settled = seq === this.lastSeen;
    this.lastSeen = seq;
    if (settled && seq > serving.manifest.catalogSeq && !this.building && !this.loading) this.rebuild();
  }

  private async load(dir: string): Promise<void> {
    try {
      const next = await loadGenerationAsync(dir);
      if (!this.closed) await this.options.swapIn(next);
    } catch (err) {
      // A newer build deleted it while it was read: the next look loads the newer one.
      if (superseded(dir, this.options.dataDir)) this.options.logger.info({ dir }, 'an index generation was replaced while loading; loading the newer one');
      else this.options.logger.error({ err, dir }, 'loading an index generation failed; serving the previous one');
    }
  }

  /** Builds a new generation in a worker thread (the server keeps answering meanwhile). */
  private rebuild(): void {
    const { dataDir, logger } = this.options;
    logger.info('catalog changed: building a new index generation in the background');
    this.building = oneShotWorker<unknown>(BUILD_WORKER, { dataDir }, 'index build')
      .result.then(
        (report) => void logger.info({ report }, 'index generation built'),
        (err: unknown) => void logger.error({ err }, 'building an index generation failed'),
      )
      .finally(() => {
        this.building = undefined;
        this.poll();
      });
  }
}
