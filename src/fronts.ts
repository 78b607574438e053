/**
 * The main thread's side of several HTTP threads (`ServerOptions.httpThreads` ≥ 2;
 * docs/http-threads-plan.md): it probes and locks the port (port-lock.ts), starts the threads
 * (front-worker.ts) with the shared memory and an index channel each (remote.ts), binds them all
 * at once, answers what they ask of the one owner (tracking hits, the login throttle, /metrics with
 * every thread's requests summed), and stops them in the
 * only order that does not abort the process: listen sockets closed, connections left to end, each
 * thread's exit awaited before anything they use is closed.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { once } from 'node:events';
import type { Logger } from 'pino';
import type { ServeConfig } from './config.js';
import { RefrainError, type WireError } from './errors.js';
import { lockPort, probePort, type HeldPort } from './http/port-lock.js';
import type { Metrics, ThreadSeries } from './http/metrics.js';
import type { IndexService } from './index/service/pool.js';
import { serveIndex } from './index/service/remote.js';
import type { UsageTable } from './auth/usage.js';
import type { Epochs } from './util/epochs.js';
import { siblingModule } from './util/one-shot-worker.js';
import type { Hits } from './auth/hits.js';
import type { Throttle } from './oauth/sessions.js';
import type { Ask, FrontWorkerData, ToMain, ToThread } from './front-worker.js';

const FRONT_WORKER = siblingModule(import.meta.url, 'front-worker');
/** Milliseconds a thread has to send its request series for /metrics. */
const GATHER_MS = 2000;
/** Milliseconds the threads have to build their routes and bind. */
const START_MS = 30_000;
/** Milliseconds a stop waits for the threads' connections to end (uWS drops idle ones after about 10 s). */
const STOP_MS = 15_000;

export interface FrontsOptions {
  config: ServeConfig;
  threads: number;
  logger: Logger;
  /** The level the threads log at (the server's logger's). */
  logLevel: string;
  index: IndexService;
  usage: UsageTable;
  epochs: Epochs;
  /** The main thread's metrics (process and index); the threads' requests are added to them. */
  metrics: Metrics;
  /** The one replay window and hit counts, and the one login throttle, of the server. */
  hits: Hits;
  throttle: Throttle;
}

export interface Fronts {
  port: number;
  url: string;
  /** Every thread answers /readyz 200 from now on. */
  ready(): void;
  /** Stops every thread (see the module comment); true once they have all exited, false if some still served after STOP_MS. */
  close(): Promise<boolean>;
}

interface Thread {
  worker: Worker;
  exited: Promise<unknown>;
  post(message: ToThread): void;
}

export async function startFronts(options: FrontsOptions): Promise<Fronts> {
  const { config, threads, logger } = options;
  const probe = await probePort(config.host, config.port);
  let lock: HeldPort;
  try {
    lock = await lockPort(probe.port);
  } catch (e) {
    await probe.release();
    throw e;
  }
  const port = probe.port;
  const url = config.publicUrl?.replace(/\/$/, '') || `http://localhost:${port}`;
  const state = new Int32Array(new SharedArrayBuffer(4));
  const legacySince = options.hits.expiringSince(Date.now());
  const started: Thread[] = [];
  /** Asks for each thread's request series, by ask id. */
  const gathering = new Map<number, { series: ThreadSeries[]; left: number; done: (series: ThreadSeries[]) => void }>();
  let nextAsk = 1;

  /** Every thread's request series; a thread that does not answer within GATHER_MS (stopping) is left out. */
  const gather = (): Promise<ThreadSeries[]> =>
    new Promise((done) => {
      const id = nextAsk++;
      const timer = setTimeout(() => {
        const ask = gathering.get(id);
        gathering.delete(id);
        if (ask) done(ask.series);
      }, GATHER_MS);
      timer.unref();
      gathering.set(id, { series: [], left: started.length, done: (series) => (clearTimeout(timer), done(series)) });
      for (const thread of started) thread.post({ t: 'series', id });
    });

  const answer = async (ask: Ask): Promise<unknown> => {
    if (ask.op === 'hit') return options.hits.record(ask.hit, ask.address, ask.token);
    if (ask.op === 'throttle') return options.throttle.begin(ask.keys);
    return options.metrics.text(await gather());
  };

  const spawn = (n: number): Thread => {
    const channel = new MessageChannel();
    const workerData: FrontWorkerData = {
      thread: n, threads, config, logLevel: options.logLevel, url, port,
      logFormat: config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY) ? 'pretty' : 'json',
      usage: options.usage.buffer, epochs: options.epochs.buffer, state: state.buffer as SharedArrayBuffer,
      index: serveIndex(options.index, channel.port1, channel.port2),
      legacySince,
    };
    const worker = new Worker(FRONT_WORKER, { workerData, transferList: [channel.port2] });
    const exited = once(worker, 'exit').finally(() => channel.port1.close());
    worker.on('message', (message: ToMain) => {
      if (message.t === 'fatal') logger.error({ thread: n, error: message.error }, 'an HTTP thread failed');
      else if (message.t === 'series') {
        const ask = gathering.get(message.id);
        if (!ask) return;
        ask.series.push({ thread: n, series: message.series });
        if (--ask.left === 0) {
          gathering.delete(message.id);
          ask.done(ask.series);
        }
      } else if (message.t === 'ask') {
        void answer(message.ask).then(
          (value) => worker.postMessage({ t: 'reply', id: message.id, value } satisfies ToThread),
          (err: unknown) => {
            logger.error({ err, thread: n }, 'answering an HTTP thread failed');
            worker.postMessage({ t: 'reply', id: message.id, value: undefined, error: String(err) } satisfies ToThread);
          },
        );
      } else if (message.t === 'throttle-succeeded') options.throttle.succeeded(message.attempt);
    });
    return { worker, exited, post: (message) => worker.postMessage(message) };
  };

  /** Resolves when every thread has posted `t`; rejects on a thread's failure, exit or the time limit. */
  const all = (t: 'ready-to-bind' | 'listening'): Promise<void> =>
    new Promise((resolve, reject) => {
      let left = started.length;
      const timer = setTimeout(() => reject(new RefrainError('startup', `the HTTP threads did not start within ${START_MS / 1000} s`)), START_MS);
      const fail = (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      };
      started.forEach(({ worker }, n) => {
        const onMessage = (message: ToMain) => {
          if (message.t === 'failed') return fail(RefrainError.fromWire(message.error as WireError));
          if (message.t !== t) return;
          worker.off('message', onMessage);
          if (--left === 0) {
            clearTimeout(timer);
            resolve();
          }
        };
        worker.on('message', onMessage);
        worker.once('error', (err) => fail(new RefrainError('startup', `HTTP thread ${n} failed to start: ${err.message}`)));
        worker.once('exit', (code) => fail(new RefrainError('startup', `HTTP thread ${n} ended while starting (exit code ${code})`)));
      });
    });

  const stop = async () => {
    Atomics.store(state, 0, 0);
    for (const thread of started) thread.post({ t: 'stop' });
    const timer = new Promise((resolve) => setTimeout(resolve, STOP_MS).unref());
    const done = await Promise.race([Promise.all(started.map((t) => t.exited)).then(() => true), timer.then(() => false)]);
    if (!done) logger.error(`HTTP threads still had open connections ${STOP_MS / 1000} s after the stop: the stores stay open for them`);
    await lock.release();
    return done;
  };

  try {
    for (let n = 0; n < threads; n++) started.push(spawn(n));
    await all('ready-to-bind');
    // Between the probe's close and the binds there are microseconds; a thread that loses the race fails its bind.
    await probe.release();
    for (const thread of started) thread.post({ t: 'bind' });
    await all('listening');
  } catch (e) {
    await probe.release();
    await stop();
    throw e;
  }
  return {
    port,
    url,
    ready: () => Atomics.store(state, 0, 1),
    close: stop,
  };
}
