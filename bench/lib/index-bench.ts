/**
 * Shared parts of bench/fingerprint and bench/search: the catalog and key they run on, seeded
 * query sets drawn from it, in-process latency of the index engines (the code a pool worker runs,
 * without the HTTP and thread hop), and an HTTP sweep over connection counts that finds the
 * throughput the server holds at p99 ≤ 20 ms, next to a bare uWS app measured in the same run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import type { Catalog } from '../../src/catalog/store.js';
import { parseArgs } from 'node:util';
import { cpuSeconds, mulberry32, startProcess, wrk, type WrkResult } from './measure.js';

export { mulberry32 };

export const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The p99 the HTTP throughput target is held at (docs/design.md §8). */
export const P99_TARGET_MS = 20;

/** `count` track ids drawn uniformly (with a seed) from the catalog's id range, existing ones only. */
export function sampleTracks(catalog: Catalog, count: number, seed: number, keep: (id: number) => boolean = () => true): number[] {
  const ids: number[] = [];
  for (const id of catalog.trackIds()) ids.push(id);
  const random = mulberry32(seed);
  const out: number[] = [];
  for (let tries = 0; out.length < count && tries < count * 50; tries++) {
    const id = ids[Math.floor(random() * ids.length)];
    if (keep(id)) out.push(id);
  }
  return out;
}

export function benchKey(catalog: Catalog, label: string): string {
  return new KeyStore(catalog.root).create({ plan: 'enterprise', quota: 0, label }).key;
}

/** Command-line options of the index benches (`--build` is bench/fingerprint's). */
export function benchOptions() {
  const { values } = parseArgs({
    options: {
      data: { type: 'string', default: path.join(ROOT, 'bench/.data/catalog-1000000') },
      build: { type: 'boolean', default: false },
      queries: { type: 'string', default: '2000' },
      seconds: { type: 'string', default: '8' },
      connections: { type: 'string', default: '1,2,4,8,16,32' },
    },
  });
  return {
    data: values.data,
    build: values.build,
    queries: Number(values.queries),
    seconds: Number(values.seconds),
    connections: values.connections.split(',').map(Number),
  };
}

export interface Latency {
  queries: number;
  p50ms: number;
  p99ms: number;
  meanMs: number;
}

/** Runs `fn` over every query once to warm up, then again timing each call. */
export function latency<Q>(queries: Q[], fn: (q: Q) => unknown): Latency {
  for (const q of queries.slice(0, Math.min(200, queries.length))) fn(q);
  const times: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    fn(q);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { queries: times.length, p50ms: at(0.5), p99ms: at(0.99), meanMs: times.reduce((a, b) => a + b, 0) / times.length };
}

/** A wrk script cycling through requests (GET paths, or POST bodies to one path). */
export function luaScript(file: string, requests: { method: 'GET' | 'POST'; path: string; body?: string }[]): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const items = requests.map((r) => `{${JSON.stringify(r.method)},${JSON.stringify(r.path)},${r.body === undefined ? 'nil' : JSON.stringify(r.body)}}`);
  const lua = `local reqs = {${items.join(',\n')}}
local i = 0
local json = {["Content-Type"] = "application/json"}
request = function()
  i = i % #reqs + 1
  local r = reqs[i]
  if r[3] then return wrk.format(r[1], r[2], json, r[3]) end
  return wrk.format(r[1], r[2])
end
`;
  writeFileSync(file, lua);
  return file;
}

export interface SweepRow extends WrkResult {
  connections: number;
  cpuUsPerRequest: number;
}

/** wrk at each connection count against one process, with its CPU per request. */
export function sweep(url: string, pid: number, script: string | undefined, connections: number[], seconds: number): SweepRow[] {
  wrk(url, { seconds: 2, connections: connections[0], script });
  return connections.map((c) => {
    const cpu0 = cpuSeconds(pid);
    const r = wrk(url, { seconds, connections: c, script });
    const cpu = cpuSeconds(pid) - cpu0;
    if (r.non2xx || r.errors) console.error(`${url} at ${c} connections: ${r.non2xx} non-2xx, ${r.errors} socket errors`);
    return { ...r, connections: c, cpuUsPerRequest: (cpu / Math.max(r.requests, 1)) * 1e6 };
  });
}

/**
 * The best throughput among rows whose p99 stays within the target, or undefined. Non-2xx answers
 * disqualify a row, except up to `allowedNon2xx` of the requests (a matcher's 404 for a query
 * nothing matches is a right answer).
 */
export function heldAtTarget(rows: SweepRow[], allowedNon2xx = 0): SweepRow | undefined {
  return rows.filter((r) => r.p99ms <= P99_TARGET_MS && r.non2xx <= allowedNon2xx * r.requests).sort((a, b) => b.rps - a.rps)[0];
}

export async function startBare(): Promise<{ pid: number; url: string; stop: () => void }> {
  const bare = await startProcess([path.join(ROOT, 'dist/bench/http/bare.js')], /^(\d+)$/);
  return { pid: bare.child.pid!, url: `http://127.0.0.1:${bare.match[1]}/`, stop: () => bare.child.kill() };
}

/**
 * Starts `refrain serve` on a data directory and reports how long it took to listen. Without feeds:
 * a first start would build a full feed in the background (minutes of one core at 1M tracks), which
 * is not what these benches measure (bench/feeds does). With HTTP statuses mirrored: wrk and the load
 * loops count an error by its HTTP status, which the default (HTTP 200, docs/api.md) would hide.
 */
export async function startRefrain(data: string, extra: string[] = []): Promise<{ pid: number; url: string; startSeconds: number; stop: () => void }> {
  const t0 = performance.now();
  const server = await startProcess(
    [path.join(ROOT, 'bin/refrain.js'), 'serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--log-level', 'info', '--no-feeds', '--http-status', 'mirror', ...extra],
    /"port":(\d+).*"msg":"listening"/,
  );
  return { pid: server.child.pid!, url: `http://127.0.0.1:${server.match[1]}`, startSeconds: (performance.now() - t0) / 1000, stop: () => server.child.kill('SIGTERM') };
}

export function sweepTable(rows: { name: string; row: SweepRow }[], bare: SweepRow[]): string {
  const bareAt = (c: number) => bare.find((b) => b.connections === c);
  return [
    '| endpoint | connections | requests/s | p50 ms | p99 ms | non-2xx | server CPU µs/request | bare uWS requests/s | bare CPU µs/request |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ name, row: r }) =>
      `| ${name} | ${r.connections} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50ms.toFixed(2)} | ${r.p99ms.toFixed(2)} | ${r.non2xx} | ${r.cpuUsPerRequest.toFixed(0)} | ` +
        `${Math.round(bareAt(r.connections)?.rps ?? 0).toLocaleString('en')} | ${(bareAt(r.connections)?.cpuUsPerRequest ?? 0).toFixed(1)} |`,
    ),
  ].join('\n');
}

export function writeResult(name: string, markdown: string, json: unknown): void {
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(path.join(ROOT, `bench/results/${name}.md`), `${markdown}\n`);
  writeFileSync(path.join(ROOT, `bench/results/${name}.json`), JSON.stringify(json, null, 2));
}
