/**
 * The servers a bench measures, each a child process on 127.0.0.1 and a free port: `refrain serve`
 * and the bare uWS app (bench/http/bare.ts) it is compared with.
 */
import path from 'node:path';
import { once } from 'node:events';
import { startProcess } from './measure.js';
import { ROOT } from './paths.js';

/** Start the bare uWS app, the baseline of the HTTP figures. */
export function startBare(): Promise<{ pid: number; url: string; stop: () => void }> {
  return startApp('bare.js', []);
}

/** Start the hand-off floor (bench/http/handoff.ts): its workers hold each request `spinUs` µs. */
export function startHandoff(spinUs: number): Promise<{ pid: number; url: string; stop: () => void }> {
  return startApp('handoff.js', ['--spin-us', String(Math.round(spinUs))]);
}

async function startApp(file: string, args: string[]): Promise<{ pid: number; url: string; stop: () => void }> {
  const app = await startProcess([path.join(ROOT, 'dist/bench/http', file), ...args], /^(\d+)$/);
  return { pid: app.child.pid!, url: `http://127.0.0.1:${app.match[1]}/`, stop: () => app.child.kill() };
}

/**
 * Starts `refrain serve` on a data directory and reports how long it took to listen. Without feeds:
 * a first start would build a full feed in the background (minutes of one core at 1M tracks), which
 * is not what these benches measure (bench/feeds does). With HTTP statuses mirrored: the load
 * loops count an error by its HTTP status, which the default (HTTP 200, docs/api.md) would hide.
 */
export async function startRefrain(
  data: string, extra: string[] = [], onSpawn?: (pid: number) => void,
): Promise<{ pid: number; url: string; startSeconds: number; stop: () => Promise<void> }> {
  const t0 = performance.now();
  const server = await startProcess(
    [path.join(ROOT, 'bin/refrain.js'), 'serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--log-level', 'info', '--no-feeds', '--http-status', 'mirror', ...extra],
    /"port":(\d+).*"msg":"listening"/,
    {},
    onSpawn,
  );
  // Stopped and awaited: with HTTP threads a stop waits for connections to end, and the next server must not share the cores with it.
  const exited = once(server.child, 'exit');
  const stop = async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
    await exited;
  };
  return { pid: server.child.pid!, url: `http://127.0.0.1:${server.match[1]}`, startSeconds: (performance.now() - t0) / 1000, stop };
}
