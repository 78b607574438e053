/**
 * An HTTP thread (`ServerOptions.httpThreads` ≥ 2; docs/http-threads-plan.md): one uWS app on the
 * server's port beside the others (SO_REUSEPORT, after app.ts probed and locked the port), mounting
 * src/front.ts over stores of its own on the same data directory. What must be one for the whole
 * server is shared: quotas and rates (the usage table), the caches' epochs, readiness (a word), the
 * index pool and its queue (RemoteIndex, through the main thread), tracking hits and the login
 * throttle (asked of the main thread's, so a replay or a guess counts once whichever thread gets it),
 * and /metrics (the main thread sums every thread's requests).
 *
 * Lifecycle, driven by the main thread over `parentPort`: build the stores and routes, post
 * `ready-to-bind`; on `bind`, listen and post `listening` (or `failed`); on `stop`, close the listen
 * socket, post `stopped` and let the loop end: the thread exits by
 * itself once its connections have ended. It never ends otherwise: ending a thread that still holds
 * uWS sockets aborts the process.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ServeConfig } from './config.js';
import { RefrainError, type WireError } from './errors.js';
import { createLogger, logDestination } from './log.js';
import { nameThisThread } from './util/thread-name.js';
import { uws, type us_listen_socket } from './http/uws.js';
import { closeConnectionsAfterAnswer, withConnectionRules } from './http/connection.js';
import { listenFailure } from './http/server.js';
import { Metrics, type SeriesSnapshot } from './http/metrics.js';
import { Catalog } from './catalog/store.js';
import { WorkStore } from './works/store.js';
import { ContributionStore } from './contributions/store.js';
import { RemoteIndex, type RemoteIndexData } from './index/service/remote.js';
import { KeyStore } from './auth/keys.js';
import { Usage, UsageTable } from './auth/usage.js';
import type { HitRecorder, TrackingHit } from './auth/hits.js';
import type { Attempt, Throttle, ThrottleResult } from './oauth/sessions.js';
import { METHODS } from './api/registry.js';
import { ResponseCache } from './api/response-cache.js';
import { CATALOG, Epochs, KEYS } from './util/epochs.js';
import { Asks } from './util/asks.js';
import { openOAuth } from './oauth/routes.js';
import { mountFront, oauthLimits } from './front.js';

export interface FrontWorkerData {
  thread: number;
  threads: number;
  config: ServeConfig;
  logLevel: string;
  /** `--log-format` as the main thread resolved `auto` (by its stdout). */
  logFormat: 'json' | 'pretty';
  url: string;
  port: number;
  usage: SharedArrayBuffer;
  epochs: SharedArrayBuffer;
  /** One word: 1 once every thread listens and the server is ready, 0 before and while stopping. */
  state: SharedArrayBuffer;
  index: RemoteIndexData;
  /** Hits.expiringSince, as the main thread read it. */
  legacySince: number;
}

/** What a thread asks the main thread, answered by a `reply` with the same id. */
export type Ask =
  | { op: 'metrics' }
  | { op: 'hit'; hit: TrackingHit; address: string; token: string }
  | { op: 'throttle'; keys: string[] };

export type ToMain =
  | { t: 'ready-to-bind' }
  | { t: 'listening' }
  | { t: 'failed'; error: WireError }
  | { t: 'fatal'; error: string }
  | { t: 'ask'; id: number; ask: Ask }
  | { t: 'throttle-succeeded'; attempt: Attempt }
  | { t: 'series'; id: number; series: SeriesSnapshot[] }
  | { t: 'stopped' };

export type ToThread = { t: 'bind' } | { t: 'stop' } | { t: 'series'; id: number } | { t: 'reply'; id: number; value: unknown; error?: string };

nameThisThread('refrain-http');
const data = workerData as FrontWorkerData;
const port = parentPort!;
const post = (message: ToMain) => port.postMessage(message);
const { config } = data;
// The main thread's output: the log file, or stdout as JSON or readable lines as it resolved them (a thread has no TTY).
const logger = createLogger(data.logLevel, logDestination({ file: config.logFile, format: data.logFormat })).child({ thread: data.thread });

// A failure the routes did not catch is logged and reported; the thread must not end on it.
process.on('uncaughtException', (err) => {
  logger.error({ err }, 'uncaught exception in an HTTP thread');
  post({ t: 'fatal', error: String(err) });
});
process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection in an HTTP thread'));

const clock = Date.now;
const catalog = Catalog.open(config.data, { randomReads: true });
const works = new WorkStore(catalog);
const contributions = new ContributionStore(catalog, works);
const keys = new KeyStore(catalog.root);
const usage = new Usage(catalog.root, UsageTable.over(data.usage));

const asked = new Asks();
/** Asks the main thread. */
const ask = <T>(question: Ask): Promise<T> => asked.ask<T>((id) => post({ t: 'ask', id, ask: question }));
const hits: HitRecorder = { record: (hit, address, token) => ask<boolean>({ op: 'hit', hit, address, token }) };
const throttle: Throttle = {
  begin: (keys) => ask<ThrottleResult>({ op: 'throttle', keys }),
  succeeded: (attempt) => post({ t: 'throttle-succeeded', attempt }),
};
const oauth = { ...(await openOAuth(catalog.root, config.data, clock, oauthLimits(config))), throttle };
const metrics = new Metrics(false);
const epochs = new Epochs(data.epochs);
const index = new RemoteIndex(data.index);
const state = new Int32Array(data.state);
// Each thread caches its own answers: together they hold what one thread would.
const cache = new ResponseCache(Math.ceil(config.responseCache / data.threads), config.responseCacheTtl * 1000, epochs.watch(CATALOG), () => catalog.refresh());

const app = uws.App();
const routes = withConnectionRules(app, { stallMs: config.httpStallTimeout * 1000, maxUrlBytes: config.maxUrlBytes, maxHeaderBytes: config.maxHeaderBytes });
mountFront(routes, {
  config, logger, clock, url: data.url, catalog, works, contributions, index, keys, usage, hits, oauth, metrics, cache,
  legacySince: data.legacySince,
  methods: METHODS,
  keysChanged: epochs.watch(KEYS),
  thread: data.thread,
  purge: data.thread === 0,
  ready: async () => (Atomics.load(state, 0) === 1 ? { tracks: catalog.trackCount(), index: await index.stats() } : undefined),
  // The main thread sums every thread's series.
  metricsText: () => ask<string>({ op: 'metrics' }),
});
routes.finish();

let socket: us_listen_socket | undefined;

port.on('message', (message: ToThread) => {
  switch (message.t) {
    case 'bind':
      return app.listen(config.host, data.port, (listening) => {
        if (listening) {
          socket = listening;
          return post({ t: 'listening' });
        }
        void listenFailure(config.host, data.port).then((why) =>
          post({ t: 'failed', error: new RefrainError('startup', `HTTP thread ${data.thread}: cannot listen on ${config.host}:${data.port}: ${why}`).toWire() }),
        );
      });
    case 'series':
      return post({ t: 'series', id: message.id, series: metrics.snapshot() });
    case 'reply':
      if (message.error === undefined) return asked.answer(message.id, message.value);
      return asked.fail(message.id, new Error(`the main thread could not answer: ${message.error}`));
    case 'stop':
      if (socket) uws.us_listen_socket_close(socket);
      socket = undefined;
      // A client keeping its connection alive gets one more answer on it, then the connection closes.
      closeConnectionsAfterAnswer();
      post({ t: 'stopped' });
      // Nothing holds the thread now but its connections: it ends when they have.
      return void port.unref();
  }
});
post({ t: 'ready-to-bind' });
