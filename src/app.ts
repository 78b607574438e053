/**
 * The composition root: builds every service of a running server (catalog, index pool, keys, usage,
 * tracking hits, OAuth, feeds, metrics, the response cache, the caches' epochs), listens
 * (src/http/server.ts) and mounts the routes that answer with them (src/front.ts). `startServer`
 * resolves once it listens; `close` stops listening and writes pending counters.
 */
import { selectKernel, type EngineChoice, type EngineName } from './index/kernel/kernel.js';
import type { Logger } from 'pino';
import { availableParallelism } from 'node:os';
import type { ServeConfig } from './config.js';
import { RefrainError } from './errors.js';
import { createLogger } from './log.js';
import { uwsIsNative } from './http/uws.js';
import { listen } from './http/server.js';
import { Metrics } from './http/metrics.js';
import { Catalog } from './catalog/store.js';
import { WorkStore } from './works/store.js';
import { ContributionStore } from './contributions/store.js';
import { IndexService } from './index/service/pool.js';
import { KeyStore } from './auth/keys.js';
import { DEFAULT_USAGE_SLOTS, Usage, UsageTable } from './auth/usage.js';
import { Hits } from './auth/hits.js';
import type { ApiMethod } from './api/method.js';
import { METHODS } from './api/registry.js';
import { ResponseCache } from './api/response-cache.js';
import { CATALOG, Epochs, KEYS } from './util/epochs.js';
import { POOL_WORKER } from './api/route.js';
import { openOAuth, type OAuthStores } from './oauth/routes.js';
import type { FeedService } from './feeds/service.js';
import { mountFront, oauthLimits } from './front.js';
import { startFronts } from './fronts.js';
import { openFeeds } from './feeds/service.js';
import { TokenService } from './oauth/tokens.js';
import { loadOrCreateSecret } from './util/secret.js';

export interface ServerOptions {
  logger?: Logger;
  /** Milliseconds since the epoch; tests move it to cross a day or a sunset. */
  clock?: () => number;
  /** Methods added to the registry (tests use fixtures to exercise request bodies). */
  extraMethods?: ApiMethod[];
  /**
   * HTTP threads, instead of `--http-threads`: 1 serves from this thread; N ≥ 2 runs N uWS apps on
   * the port in threads of their own (src/fronts.ts), this thread keeping the index pool, the
   * counters, the throttle and the schedules. Not with `clock` or `extraMethods`, which cannot
   * cross threads.
   */
  httpThreads?: number;
}

export interface RunningServer {
  port: number;
  /** Base URL the server is reached at (config.publicUrl, or http://localhost:PORT). */
  url: string;
  catalog: Catalog;
  works: WorkStore;
  contributions: ContributionStore;
  index: IndexService;
  keys: KeyStore;
  usage: Usage;
  hits: Hits;
  /** The OAuth authorization server's stores and token service (tests create clients and users here). */
  oauth: Omit<OAuthStores, 'signin' | 'throttle'> & { tokens: TokenService };
  /** Re-read keys now instead of within the next second (after a revoke, say). */
  refreshKeys(): void;
  /** Drop cached answers now if the catalog changed, instead of within the next poll. */
  refreshCatalog(): void;
  /** The feeds: listing, schedule (`feeds.schedule.build(kind)` builds one now). */
  feeds: FeedService;
  /** HTTP threads serving the port (1: the main thread). */
  httpThreads: number;
  /** The kernel answering index queries, and why `auto` chose the TypeScript one (serve warns). */
  engine: { name: EngineName; why?: string };
  close(): Promise<void>;
}

const FLUSH_MS = 2000;

/** The kernel `--engine` selects; refuses (a startup error) `native` where the addon does not load. */
export function engineOf(choice: EngineChoice): ReturnType<typeof selectKernel> {
  const engine = selectKernel(choice);
  if (!engine.kernel) {
    throw new RefrainError('startup', `--engine native: the ${engine.why}; run npm run build:native, or pass --engine auto (native when it loads) or ts`);
  }
  return engine;
}

/**
 * HTTP threads for `--http-threads` (0: auto). The HTTP thread takes about a quarter of a
 * fingerprint's CPU and all of a cached lookup's (docs/benchmarks.md, "CPU per request by thread"),
 * so auto gives one per four cores, at least 1 (the main thread, as on small machines) and at most 8.
 */
export function httpThreadsFor(asked: number, cores: number): number {
  return asked > 0 ? asked : Math.min(8, Math.max(1, Math.floor(cores / 4)));
}

export async function startServer(config: ServeConfig, options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  if (!uwsIsNative && !config.allowUwsFallback) {
    throw new RefrainError(
      'startup',
      "uWebSockets.js's native binary did not load and its JavaScript fallback is far slower; " +
        'refusing to start (pass --allow-uws-fallback to run anyway)',
    );
  }
  // A clock or extra methods cannot cross threads: asked for, several threads are refused before
  // anything starts; chosen by auto, one thread serves.
  const local = Boolean(options.clock || options.extraMethods);
  if (local && (options.httpThreads ?? config.httpThreads) > 1) {
    throw new RefrainError('internal', 'several HTTP threads cannot be used with a clock or extra methods: they cannot cross threads');
  }
  const threads = local ? 1 : (options.httpThreads ?? httpThreadsFor(config.httpThreads, availableParallelism()));
  const engine = engineOf(config.engine);
  const clock = options.clock ?? Date.now;
  const catalog = Catalog.open(config.data, { randomReads: true });
  // The index pool is loaded and warmed before the server listens (docs/design.md §10).
  const index = await IndexService.start({
    dataDir: config.data,
    catalog,
    logger,
    threads: config.indexThreads || availableParallelism(),
    queue: config.indexQueue,
    queueCost: config.indexQueueCost,
    deadlineMs: config.indexDeadlineMs,
    engine: engine.engine,
    preload: [POOL_WORKER],
  });
  const works = new WorkStore(catalog);
  const contributions = new ContributionStore(catalog, works);
  const keys = new KeyStore(catalog.root);
  const hits = new Hits(catalog.root, { windowMs: config.trackingReplayWindow * 1000, maxEntries: config.trackingDedupeEntries }, clock);
  const oauth = await openOAuth(catalog.root, config.data, clock, oauthLimits(config));
  // A slot per key and OAuth client that makes requests; room for four times those that exist now.
  const usage = new Usage(catalog.root, UsageTable.create(Math.max(DEFAULT_USAGE_SLOTS, 4 * (keys.list().length + oauth.clients.list().length))));
  const metrics = new Metrics();
  metrics.watchIndex(() => index.stats);
  const methods = new Map(METHODS);
  for (const m of options.extraMethods ?? []) methods.set(m.name, m);

  // The caches' epochs (src/util/epochs.ts), bumped here when keys or the catalog change.
  const epochs = new Epochs();
  const polls = [
    epochs.poll(KEYS, () => {
      catalog.refresh();
      return keys.version();
    }, 1000),
    epochs.poll(CATALOG, () => {
      catalog.refresh();
      return catalog.lastChange();
    }, 250),
  ];
  const stopPolls = () => polls.forEach((p) => p.close());
  const cache = new ResponseCache(config.responseCache, config.responseCacheTtl * 1000, epochs.watch(CATALOG), () => catalog.refresh());
  let ready = false;
  let url = config.publicUrl?.replace(/\/$/, '') ?? '';
  const failed = async (e: unknown): Promise<never> => {
    // Nothing may keep the process alive after a failed start: the pool's threads, the watchers.
    stopPolls();
    await index.close();
    await catalog.close();
    throw e;
  };
  let port: number;
  /** `close` resolves false when HTTP threads did not exit in time (they may still use the stores). */
  let front: { feeds: FeedService; tokens: TokenService; close(): Promise<boolean> };
  if (threads > 1) {
    // Made here before the threads read them: no two threads race to create a secret or key file.
    loadOrCreateSecret(config.data, 'tracking.key');
    loadOrCreateSecret(config.data, 'feeds.key');
    const fronts = await startFronts({
      config, threads, logger, logLevel: logger.level, index, usage: usage.table, epochs, metrics, hits, throttle: oauth.throttle,
    }).catch(failed);
    ({ port, url } = fronts);
    try {
      front = {
        feeds: openFeeds(config, { catalog, clock, logger, baseUrl: () => url }),
        tokens: new TokenService({ ...oauth, issuer: config.issuer ?? url, accessTtl: config.accessTokenTtl, clock }),
        close: () => fronts.close(),
      };
    } catch (e) {
      // The threads listen: they are stopped (and awaited) before the rest closes.
      await fronts.close();
      return failed(e);
    }
    fronts.ready();
  } else {
    const listening = await listen(
      {
        host: config.host,
        port: config.port,
        limits: { stallMs: config.httpStallTimeout * 1000, maxUrlBytes: config.maxUrlBytes, maxHeaderBytes: config.maxHeaderBytes },
      },
      // Mounted once the port is known: the default base URL (tracking URLs, share pages, the OAuth
      // issuer) holds it. No request is read before the routes are in place.
      (routes, bound) => {
        url ||= `http://localhost:${bound}`;
        return mountFront(routes, {
          config, logger, clock, url, catalog, works, contributions, index, keys, usage, hits, oauth, metrics, methods, cache,
          legacySince: hits.expiringSince(clock()),
          keysChanged: epochs.watch(KEYS),
          ready: () => (ready ? { tracks: catalog.trackCount(), index: index.stats } : undefined),
          metricsText: () => metrics.text(),
        });
      },
    ).catch(failed);
    port = listening.port;
    const { feeds, tokens } = listening.mounted;
    front = {
      feeds,
      tokens,
      async close() {
        listening.close();
        return true;
      },
    };
  }
  const { feeds, tokens } = front;

  const flush = () => Promise.all([usage.flush(), hits.flush()]).catch((err: unknown) => logger.error({ err }, 'writing counters failed'));
  let closed = false;
  const flusher = setInterval(() => void flush(), FLUSH_MS);
  flusher.unref();
  ready = true;
  feeds.start();
  logger.info({ port, url, tracks: catalog.trackCount(), uws: uwsIsNative ? 'native' : 'fallback', httpThreads: threads, engine: engine.engine }, 'listening');

  return {
    port, url, catalog, works, contributions, index, keys, usage, hits, feeds, httpThreads: threads, engine: { name: engine.engine, why: engine.why },
    oauth: { clients: oauth.clients, users: oauth.users, grants: oauth.grants, keys: oauth.keys, sessions: oauth.sessions, tokens },
    refreshKeys: () => polls[0].check(),
    refreshCatalog: () => polls[1].check(),
    async close() {
      if (closed) return;
      closed = true;
      ready = false;
      clearInterval(flusher);
      stopPolls();
      // The HTTP threads first: they use the index and the stores until they have exited. Threads
      // still serving a connection after the stop's bound keep them open (serve.ts then ends the process).
      if (threads > 1 && !(await front.close())) return;
      await feeds.close();
      await index.close();
      if (threads === 1) await front.close();
      await flush();
      await oauth.sessions.close();
      await catalog.close();
    },
  };
}
