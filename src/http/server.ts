/**
 * The HTTP server: one uWS app on the main thread serving /ws/1.1/, the OAuth authorization
 * server (/oauth/, /.well-known/), the operational endpoints (/healthz, /readyz, /metrics), the
 * tracking URLs, the share pages and the feed downloads (/feeds/, src/feeds/). `startServer` resolves once it listens; `close` stops
 * listening and writes pending counters.
 */
import type { Logger } from 'pino';
import { uws, uwsIsNative, type HttpResponse, type TemplatedApp, type us_listen_socket } from './uws.js';
import { createServer as createNetServer } from 'node:net';
import type { ServeConfig } from '../config.js';
import type { ApiMethod } from '../api/method.js';
import { availableParallelism } from 'node:os';
import { Catalog } from '../catalog/store.js';
import { IndexService } from '../index/service/pool.js';
import { KeyStore } from '../auth/keys.js';
import { Guard } from '../auth/guard.js';
import { Usage } from '../auth/usage.js';
import { Hits } from '../auth/hits.js';
import { Links } from '../api/links.js';
import { METHODS } from '../api/registry.js';
import { openapiDocument } from '../api/openapi.js';
import { Metrics } from './metrics.js';
import { ResponseCache } from './response-cache.js';
import { apiRoute } from './api-route.js';
import { artistPageRoute, sharePageRoute, trackingRoute } from './pages.js';
import { STATUS_LINE } from './status.js';
import { withConnectionRules } from './connection.js';
import { createLogger } from '../log.js';
import { loadOrCreateSecret } from '../util/secret.js';
import { mountOAuth, openOAuth, type OAuthStores } from '../oauth/routes.js';
import type { TokenService } from '../oauth/tokens.js';
import { openFeeds, type FeedService } from '../feeds/service.js';

export interface ServerOptions {
  logger?: Logger;
  /** Milliseconds since the epoch; tests move it to cross a day or a sunset. */
  clock?: () => number;
  /** Methods added to the registry (tests use fixtures to exercise request bodies). */
  extraMethods?: ApiMethod[];
}

export interface RunningServer {
  port: number;
  /** Base URL the server is reached at (config.publicUrl, or http://localhost:PORT). */
  url: string;
  catalog: Catalog;
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
  close(): Promise<void>;
}

const FLUSH_MS = 2000;

/** The server cannot start as configured (shown to the operator without a stack trace). */
export class StartupError extends Error {}

function json(res: HttpResponse, status: number, value: unknown): void {
  res.writeStatus(STATUS_LINE[status]);
  res.writeHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(value));
}

/** LIBUS_LISTEN_EXCLUSIVE_PORT: the native module exports it, its typings and the JS fallback do not. */
const EXCLUSIVE_PORT: number = (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT?: number }).LIBUS_LISTEN_EXCLUSIVE_PORT ?? 1;

/** uWS's listen(host, port, options, cb): the typings only know the (port, options, cb) form. */
function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (socket: us_listen_socket | false) => void): void {
  (app.listen as unknown as (h: string, p: number, o: number, c: typeof cb) => void)(host, port, EXCLUSIVE_PORT, cb);
}

/** Why uWS could not listen (it only says that it could not): node:net tries the same address and names the error. */
function listenFailure(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') resolve(`port ${port} is already in use (another refrain serve, or another program, listens there); stop it or choose another --port`);
      else if (e.code === 'EACCES') resolve(`no permission to use port ${port} (ports below 1024 need privileges); choose another --port`);
      else if (e.code === 'EADDRNOTAVAIL') resolve(`${host} is not an address of this machine; choose another --host`);
      else resolve(`${e.code ?? 'error'}: ${e.message}`);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve('in use, or no permission')));
  });
}

export async function startServer(config: ServeConfig, options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  if (!uwsIsNative && !config.allowUwsFallback) {
    throw new StartupError(
      "uWebSockets.js's native binary did not load and its JavaScript fallback is far slower; " +
        'refusing to start (pass --allow-uws-fallback to run anyway)',
    );
  }
  const clock = options.clock ?? Date.now;
  const catalog = Catalog.open(config.data);
  // The index pool is loaded and warmed before the server listens (docs/design.md §10).
  const index = await IndexService.start({
    dataDir: config.data,
    catalog,
    logger,
    threads: config.indexThreads || availableParallelism(),
    queue: config.indexQueue,
    queueCost: config.indexQueueCost,
    deadlineMs: config.indexDeadlineMs,
  });
  const keys = new KeyStore(catalog.root);
  const usage = new Usage(catalog.root);
  const hits = new Hits(catalog.root, { windowMs: config.trackingReplayWindow * 1000, maxEntries: config.trackingDedupeEntries }, clock);
  const oauth = await openOAuth(catalog.root, config.data, clock, {
    signinTtlMs: config.oauthSigninTtl * 1000,
    sessionsPerAddress: config.oauthSessionsPerAddress,
    loginAttempts: config.oauthLoginAttempts,
    loginWindowMs: config.oauthLoginWindow * 1000,
  });
  const metrics = new Metrics();
  metrics.watchIndex(() => index.stats);
  const methods = new Map(METHODS);
  for (const m of options.extraMethods ?? []) methods.set(m.name, m);

  const cache = new ResponseCache(config.responseCache, config.responseCacheTtl * 1000, () => {
    catalog.refresh();
    return catalog.lastChange();
  });
  let ready = false;
  let listenSocket: us_listen_socket | false = false;
  let url = config.publicUrl?.replace(/\/$/, '') ?? '';
  const links = new Links('', loadOrCreateSecret(config.data, 'tracking.key'), {
    ttlSeconds: config.trackingTokenTtl,
    legacySince: hits.expiringSince(clock()),
    clock,
  });
  const feeds = openFeeds(config, { catalog, clock, logger, baseUrl: () => url });
  let openapi = '';

  const app = uws.App();
  const port = await new Promise<number>((resolve, reject) => {
    // Exclusive: uWS would otherwise set SO_REUSEPORT, and a second server on the same port would
    // start and silently take half the connections.
    listenExclusive(app, config.host, config.port, (socket) => {
      if (!socket) return void listenFailure(config.host, config.port).then((why) => reject(new StartupError(`cannot listen on ${config.host}:${config.port}: ${why}`)));
      listenSocket = socket;
      resolve(uws.us_socket_local_port(socket));
    });
  }).catch(async (e: unknown) => {
    // Nothing may keep the process alive after a failed start: the pool's threads, the watchers.
    cache.close();
    await index.close();
    await catalog.close();
    throw e;
  });
  url ||= `http://localhost:${port}`;
  links.baseUrl = url;
  openapi = JSON.stringify(openapiDocument(methods.values(), url, config.httpStatus));

  // Routes are mounted once the port is known: the default OAuth issuer is the base URL, which holds
  // it. uWS calls the listen callback synchronously, so no request is read before they are.
  // Every route is mounted through the connection rules (bounded output, HEAD, request limits).
  const routes = withConnectionRules(app, {
    stallMs: config.httpStallTimeout * 1000,
    maxUrlBytes: config.maxUrlBytes,
    maxHeaderBytes: config.maxHeaderBytes,
  });
  const tokens = mountOAuth(routes, oauth, {
    issuer: config.issuer ?? url,
    accessTtl: config.accessTokenTtl,
    insecureCookies: config.oauthInsecureCookies,
    logger,
    accessLog: config.accessLog,
    clock,
  });
  const guard = new Guard(keys, () => catalog.refresh(), { tokens, clients: oauth.clients }, {
    unknownKeyEntries: config.unknownKeyCache,
    unknownKeyBytes: config.unknownKeyCacheBytes,
  });
  routes.any(
    '/ws/1.1/*',
    apiRoute({
      catalog, index, guard, usage, links, metrics, logger, methods,
      response: { httpStatus: config.httpStatus, corsOrigin: config.corsOrigin },
      methodOptions: {
        lyricslensSunset: config.lyricslensSunset,
        maxFingerprintChars: config.maxFingerprintChars,
        feeds: feeds.directory,
        contributions: { perSource: config.contributionsPerKey, total: config.contributionsPending },
      },
      maxBodyBytes: config.maxBodyBytes,
      accessLog: config.accessLog,
      clock,
      cache,
      openapi: () => openapi,
    }),
  );
  routes.get('/healthz', (res) => json(res, 200, { status: 'ok' }));
  routes.get('/readyz', (res) =>
    json(res, ready ? 200 : 503, { status: ready ? 'ready' : 'starting', tracks: ready ? catalog.trackCount() : 0, index: ready ? index.stats : undefined }),
  );
  routes.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    metrics.text().then(
      (text) => {
        if (aborted) return;
        res.cork(() => {
          res.writeHeader('content-type', metrics.contentType);
          res.end(text);
        });
      },
      (err: unknown) => {
        logger.error({ err }, 'collecting metrics failed');
        if (!aborted) res.cork(() => json(res, 500, { error: 'collecting metrics failed' }));
      },
    );
  });
  routes.get('/t1.0/:kind/:token', trackingRoute(links, hits));
  routes.get('/lyrics/:id/*', sharePageRoute(catalog));
  routes.get('/artist/:id/*', artistPageRoute(catalog, links));
  feeds.mount(routes);
  routes.any('/*', (res, req) => json(res, 404, { error: `no route for ${req.getMethod().toUpperCase()} ${req.getUrl()}`, api: '/ws/1.1/<method>' }));
  routes.finish();

  const flush = () => Promise.all([usage.flush(), hits.flush()]).catch((err: unknown) => logger.error({ err }, 'writing counters failed'));
  let closed = false;
  const flusher = setInterval(() => void flush(), FLUSH_MS);
  flusher.unref();
  ready = true;
  feeds.start();
  logger.info({ port, url, tracks: catalog.trackCount(), uws: uwsIsNative ? 'native' : 'fallback' }, 'listening');

  return {
    port, url, catalog, index, keys, usage, hits, feeds,
    oauth: { clients: oauth.clients, users: oauth.users, grants: oauth.grants, keys: oauth.keys, sessions: oauth.sessions, tokens },
    refreshKeys: () => guard.checkVersion(),
    refreshCatalog: () => cache.checkVersion(),
    async close() {
      if (closed) return;
      closed = true;
      ready = false;
      clearInterval(flusher);
      guard.close();
      cache.close();
      await feeds.close();
      await index.close();
      if (listenSocket) uws.us_listen_socket_close(listenSocket);
      listenSocket = false;
      await flush();
      await oauth.sessions.close();
      await catalog.close();
    },
  };
}
