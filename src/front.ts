/**
 * The front end's routes, mounted on one uWS app given the services they answer with: /ws/1.1/, the
 * OAuth authorization server (/oauth/, /.well-known/), the operational endpoints (/healthz, /readyz,
 * /metrics), the tracking URLs, the share pages and the feed downloads. The composition root
 * (src/app.ts) builds the services and mounts this once the port is known (the default base URL
 * holds it); what a route needs comes in `FrontDeps` and nothing else, so the same mount can serve
 * from a thread of its own (docs/http-threads-plan.md, step 4).
 */
import type { Logger } from 'pino';
import type { ServeConfig } from './config.js';
import type { Routes } from './http/server.js';
import { route, jsonOutgoing, type Outgoing, type RouteOptions } from './http/route.js';
import type { Metrics } from './http/metrics.js';
import type { Catalog } from './catalog/store.js';
import type { WorkStore } from './works/store.js';
import type { ContributionStore } from './contributions/store.js';
import type { IndexFront } from './index/service/front.js';
import type { KeyStore } from './auth/keys.js';
import type { Usage } from './auth/usage.js';
import type { HitRecorder } from './auth/hits.js';
import { Guard } from './api/guard.js';
import { Links } from './api/links.js';
import type { ApiMethod } from './api/method.js';
import { openapiDocument } from './api/openapi.js';
import type { ResponseCache } from './api/response-cache.js';
import type { EpochWatch } from './util/epochs.js';
import { apiRoute } from './api/route.js';
import { artistPage, sharePage, trackingPage } from './api/pages.js';
import { loadOrCreateSecret } from './util/secret.js';
import { mountOAuth, type OAuthLimits, type OAuthStores } from './oauth/routes.js';
import type { TokenService } from './oauth/tokens.js';
import { openFeeds, type FeedService } from './feeds/service.js';

/** What /readyz says once the server is ready (undefined before). */
export interface ReadyState {
  tracks: number;
  index: unknown;
}

export interface FrontDeps {
  config: ServeConfig;
  logger: Logger;
  clock: () => number;
  /** The base URL the server is reached at. */
  url: string;
  catalog: Catalog;
  works: WorkStore;
  contributions: ContributionStore;
  index: IndexFront;
  keys: KeyStore;
  usage: Usage;
  hits: HitRecorder;
  /** When tracking tokens started to expire (Hits.expiringSince): tokens older than it are honoured. */
  legacySince: number;
  oauth: OAuthStores;
  metrics: Metrics;
  methods: ReadonlyMap<string, ApiMethod>;
  cache: ResponseCache;
  /** The `KEYS` epoch (src/util/epochs.ts), which the guard follows. */
  keysChanged: EpochWatch;
  ready: () => ReadyState | undefined | Promise<ReadyState | undefined>;
  /** The /metrics text (with several HTTP threads, every thread's requests summed). */
  metricsText: () => Promise<string>;
  /** The HTTP thread answering, shown by /healthz when there are several. */
  thread?: number;
  /** Purge expired OAuth sessions from here (default true; one thread does it). */
  purge?: boolean;
}

/** The OAuth stores' limits from the configuration. */
export const oauthLimits = (config: ServeConfig): OAuthLimits => ({
  signinTtlMs: config.oauthSigninTtl * 1000,
  sessionsPerAddress: config.oauthSessionsPerAddress,
  loginAttempts: config.oauthLoginAttempts,
  loginWindowMs: config.oauthLoginWindow * 1000,
});


export interface FrontMounted {
  feeds: FeedService;
  tokens: TokenService;
}

/** Mounts every route on `routes`; no request is read before it returns. */
export function mountFront(routes: Routes, deps: FrontDeps): FrontMounted {
  const { config, logger, clock, url, catalog, works, contributions, index, keys, usage, hits, oauth, metrics, methods, cache } = deps;
  const links = new Links(url, loadOrCreateSecret(config.data, 'tracking.key'), {
    ttlSeconds: config.trackingTokenTtl,
    legacySince: deps.legacySince,
    clock,
  });
  const feeds = openFeeds(config, { catalog, clock, logger, baseUrl: () => url });
  const tokens = mountOAuth(routes, oauth, {
    issuer: config.issuer ?? url,
    accessTtl: config.accessTokenTtl,
    insecureCookies: config.oauthInsecureCookies,
    logger,
    accessLog: config.accessLog,
    clock,
    purge: deps.purge,
  });
  const guard = new Guard(keys, () => catalog.refresh(), deps.keysChanged, { tokens, clients: oauth.clients }, {
    unknownKeyEntries: config.unknownKeyCache,
    unknownKeyBytes: config.unknownKeyCacheBytes,
  });
  routes.any(
    '/ws/1.1/*',
    apiRoute({
      catalog, works, contributions, index, guard, usage, links, metrics, logger, methods,
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
      openapi: JSON.stringify(openapiDocument(methods.values(), url, config.httpStatus)),
    }),
  );
  mountOperational(routes, deps);
  const page = { logger, fail: pageFailure(logger) };
  routes.get('/t1.0/:kind/:token', route(trackingPage(links, hits), { ...page, params: 2, ip: true }));
  routes.get('/lyrics/:id/*', route(sharePage(catalog), { ...page, params: 1 }));
  routes.get('/artist/:id/*', route(artistPage(catalog, links), { ...page, params: 1 }));
  feeds.mount(routes);
  routes.any('/*', route((incoming) => jsonOutgoing(404, { error: `no route for ${incoming.method.toUpperCase()} ${incoming.path}`, api: '/ws/1.1/<method>' }), page));
  return { feeds, tokens };
}

/** /healthz, /readyz and /metrics: what load balancers and monitoring read. */
function mountOperational(routes: Routes, deps: Pick<FrontDeps, 'logger' | 'ready' | 'metricsText' | 'thread' | 'metrics'>): void {
  const { logger, metrics } = deps;
  const options: RouteOptions = {
    logger,
    fail: (err) => {
      logger.error({ err }, 'answering an operational endpoint failed (collecting metrics, say)');
      return jsonOutgoing(500, { error: 'internal error' });
    },
  };
  const health = deps.thread === undefined ? { status: 'ok' } : { status: 'ok', thread: deps.thread };
  routes.get('/healthz', route(() => jsonOutgoing(200, health), options));
  const readiness = (state: ReadyState | undefined) =>
    jsonOutgoing(state ? 200 : 503, { status: state ? 'ready' : 'starting', tracks: state?.tracks ?? 0, index: state?.index });
  routes.get(
    '/readyz',
    route(() => {
      const state = deps.ready();
      return state instanceof Promise ? state.then(readiness) : readiness(state);
    }, options),
  );
  routes.get('/metrics', route(async (): Promise<Outgoing> => ({ status: 200, headers: { 'content-type': metrics.contentType }, body: await deps.metricsText() }), options));
}

/** The answer of a page route that failed (never expected; logged). */
const pageFailure = (logger: Logger) => (err: unknown): Outgoing => {
  logger.error({ err }, 'answering a page failed');
  return { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: 'internal error\n' };
};
