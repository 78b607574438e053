/**
 * `refrain serve`. With `--demo` (what `npm start` passes) an empty data directory first gets a
 * generated demo catalog and a demo enterprise key, so a fresh clone serves real answers at once.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServeConfig } from '../config.js';
import { Catalog } from '../catalog/store.js';
import { KeyStore } from '../auth/keys.js';
import { engineOf, startServer } from '../app.js';
import { createLogger, logDestination } from '../log.js';
import { currentGeneration } from '../index/store/layout.js';
import { generateWithProgress, importSummary, importWithProgress, indexWithProgress } from './commands.js';
import { warnWithoutNative } from './output.js';

/** Seed of the demo catalog: every fresh clone serves the same demo. */
const DEMO_SEED = 20261122;
const DEMO_KEY_FILE = 'demo-key.txt';

/**
 * Generate and import the demo catalog if the catalog is empty, and make sure the saved demo key
 * works: a revoked or unknown one (the operator ran `keys revoke`, or the data directory was
 * rebuilt) is replaced, so the key printed at start is never a dead one (issue 11 #15).
 */
export async function prepareDemo(config: ServeConfig, progress: boolean): Promise<void> {
  mkdirSync(config.data, { recursive: true });
  const catalog = Catalog.open(config.data);
  try {
    if (catalog.trackCount() === 0) {
      const file = path.join(config.data, 'demo-catalog.jsonl.gz');
      process.stderr.write(`empty catalog: generating a demo catalog of ${config.demoTracks} tracks (seed ${DEMO_SEED})…\n`);
      await generateWithProgress({ tracks: config.demoTracks, seed: DEMO_SEED }, file, progress);
      const report = await importWithProgress(catalog, [file], {}, progress);
      process.stderr.write(`${importSummary(report)}\n`);
    }
    const keys = new KeyStore(catalog.root);
    const saved = savedDemoKey(config.data);
    if (saved && keys.lookup(saved)) return;
    if (saved) process.stderr.write('the saved demo key is revoked or unknown to this data directory: making a new one\n');
    const { key } = keys.create({ plan: 'enterprise', label: 'demo key made by npm start' });
    // The demo key is written down (mode 0600) so later starts can print a working example too.
    writeFileSync(path.join(config.data, DEMO_KEY_FILE), `${key}\n`, { mode: 0o600 });
  } finally {
    await catalog.close();
  }
}

function savedDemoKey(dataDir: string): string | undefined {
  try {
    return readFileSync(path.join(dataDir, DEMO_KEY_FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Text safe inside a single-quoted shell word. */
const shellQuoted = (text: string): string => text.replace(/'/g, "'\\''");

/**
 * The demo's key is unlimited, so `--demo` listens on the loopback address only, unless the
 * operator chose an address (`--host` or HOST) (issue 11 #14).
 */
export const DEMO_HOST = '127.0.0.1';

/** Where the server listens, in words for the startup output. */
function listeningOn(host: string, port: number, demo: boolean, threads = 1): string {
  return `${listeningWhere(host, port, demo)}${threads > 1 ? ` ${threads} HTTP threads.` : ''}`;
}

function listeningWhere(host: string, port: number, demo: boolean): string {
  if (host === DEMO_HOST || host === 'localhost' || host === '::1')
    return `Listening on ${host}:${port} only: other machines cannot connect${demo ? ' (pass --host 0.0.0.0 to allow them)' : ''}.`;
  const every = host === '0.0.0.0' || host === '::';
  return `Listening on ${host}:${port}${every ? ' (every interface)' : ''}` +
    (demo ? ': the demo key is unlimited, anyone who can reach this address can use it.' : '.');
}

export async function runServe(given: ServeConfig, explicit: ReadonlySet<string> = new Set()): Promise<number> {
  const config = given.demo && !explicit.has('host') ? { ...given, host: DEMO_HOST } : given;
  // An engine that cannot be had is refused before any work (a demo catalog, the first index build).
  engineOf(config.engine);
  const progress = config.progress ?? Boolean(process.stderr.isTTY);
  if (config.demo) await prepareDemo(config, progress);
  const logger = createLogger(config.logLevel, logDestination({ file: config.logFile, format: config.logFormat }));
  // The first index build, with a progress bar (the server would otherwise build it without one).
  if (!currentGeneration(config.data)) {
    logger.info('no index yet: building it before listening');
    const report = await indexWithProgress(config.data, false, progress);
    logger.info({ seconds: report.seconds, lyrics: report.lyrics, tracks: report.tracks, bytes: report.bytes }, 'index built');
  }
  const server = await startServer(config, { logger });
  warnWithoutNative(server.engine);
  process.stderr.write(`${listeningOn(config.host, server.port, config.demo, server.httpThreads)}\n`);
  // Without --demo a saved demo key is shown only while it still works.
  const saved = savedDemoKey(config.data);
  const key = saved && server.keys.lookup(saved) ? saved : undefined;
  const first = server.catalog.trackIds()[Symbol.iterator]().next();
  if (key && !first.done) {
    const track = server.catalog.getTrack(first.value);
    const lyrics = server.catalog.getContent('lyrics', first.value)?.lyrics_body ?? '';
    const excerpt = lyrics.split('\n').filter(Boolean).slice(0, 4).join('\n');
    const word = encodeURIComponent(track?.track_name.split(' ')[0] ?? 'love').replace(/'/g, '%27');
    process.stderr.write(
      `\nRefrain is serving ${server.catalog.trackCount().toLocaleString('en')} tracks at ${server.url}\n` +
        `Try:\n  curl '${server.url}/ws/1.1/track.lyrics.get?track_id=${first.value}&apikey=${key}'\n` +
        `  curl '${server.url}/ws/1.1/track.search?q_track=${word}&page_size=3&apikey=${key}'\n` +
        `  curl '${server.url}/ws/1.1/chart.tracks.get?page_size=3&apikey=${key}'\n` +
        (excerpt
          ? `  curl -X POST '${server.url}/ws/1.1/track.lyrics.fingerprint.post?size=3&apikey=${key}' -H 'Content-Type: application/json' \\\n` +
            `    -d '${shellQuoted(JSON.stringify({ data: { text: excerpt } }))}'\n`
          : '') +
        `API description: ${server.url}/ws/1.1/openapi.json\n\n`,
    );
  }
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  // One line, then a clean stop (exit 0); a second signal, or a stop past the bound, ends it at once.
  process.stderr.write(
    `${process.stderr.isTTY ? '\n' : ''}${signal}: stopping: no new requests, writing counters, closing the data directory ` +
      `(${signal === 'SIGINT' ? 'Ctrl-C' : 'a signal'} again exits at once)\n`,
  );
  const threaded = server.httpThreads > 1;
  process.once('SIGINT', () => exitAtOnce('SIGINT', 130, threaded));
  process.once('SIGTERM', () => exitAtOnce('SIGTERM', 143, threaded));
  setTimeout(() => {
    process.stderr.write(`did not stop within ${(threaded ? THREADED_STOP_BOUND_MS : STOP_BOUND_MS) / 1000} s: exiting\n`);
    exitAtOnce('SIGKILL', 1, threaded);
  }, threaded ? THREADED_STOP_BOUND_MS : STOP_BOUND_MS).unref();
  await server.close();
  return 0;
}

/** Longest a stop may take after SIGINT or SIGTERM before the process exits anyway (code 1). */
const STOP_BOUND_MS = 10_000;
/** With HTTP threads: above the 15 s they have for their connections to end (src/fronts.ts). */
const THREADED_STOP_BOUND_MS = 20_000;

/**
 * Ends the process now. With HTTP threads, `process.exit` would abort it (a thread still holding
 * uWS sockets fails Node's teardown with SIGABRT), so the signal is raised again with its default
 * action instead: the process dies of it, as a shell or a supervisor expects (130/143 seen by a
 * shell, SIGKILL for the stop bound).
 */
function exitAtOnce(signal: NodeJS.Signals, code: number, threaded: boolean): void {
  if (!threaded) process.exit(code);
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}
