/**
 * Shared parts of bench/fingerprint and bench/search: their command line, seeded track samples
 * from the catalog they run on, in-process latency of the index engines (the code a pool worker
 * runs, without the HTTP and thread hop), and an HTTP sweep over connection counts that finds the
 * throughput the server holds at p99 ≤ 20 ms, next to a bare uWS app measured in the same run.
 */
import path from 'node:path';
import type { Catalog } from '../../src/catalog/store.js';
import { benchArgs } from './args.js';
import { CPU_COLUMN, cpuByThread, cpuCell, cpuPerRequest, load, type BenchRequest, type LoadRow, type ThreadCpu } from './measure.js';
import { DATA_DIR } from './paths.js';
import { Rng } from './random.js';

/** The p99 the HTTP throughput target is held at (docs/design.md §8). */
export const P99_TARGET_MS = 20;

/** `count` track ids drawn uniformly (with a seed) from the catalog's id range, existing ones only. */
export function sampleTracks(catalog: Catalog, count: number, seed: number, keep: (id: number) => boolean = () => true): number[] {
  const ids: number[] = [];
  for (const id of catalog.trackIds()) ids.push(id);
  const rng = new Rng(seed);
  const out: number[] = [];
  for (let tries = 0; out.length < count && tries < count * 50; tries++) {
    const id = rng.pick(ids);
    if (keep(id)) out.push(id);
  }
  return out;
}

/** A fingerprint query: a text and the track it was taken from. */
export interface TextQuery {
  id: number;
  text: string;
}

/** Length of bench/fingerprint's exact excerpts. */
export const EXCERPT = 200;

/**
 * bench/fingerprint's query sets, seeded (tracks: `seed`, 11 by default, texts: `seed` + 1), so every script that
 * measures the fingerprint (run.ts, short-profile.ts) times the same texts: `excerpt`, exact
 * 200-character excerpts from a word start of `count` random lyrics; `line`, one lyric line of 4–9
 * words from each that has one (the `line` bucket of bench/quality); `short`, each excerpt's first 50
 * characters.
 */
export function fingerprintQuerySets(catalog: Catalog, count: number, seed = 11): { excerpt: TextQuery[]; line: TextQuery[]; short: TextQuery[] } {
  const withLyrics = sampleTracks(catalog, count, seed, (id) => (catalog.getContent('lyrics', id)?.lyrics_body.length ?? 0) > EXCERPT + 20);
  const rng = new Rng(seed + 1);
  const excerpt = withLyrics.map((id) => {
    const body = catalog.getContent('lyrics', id)!.lyrics_body;
    let start = rng.int(0, body.length - EXCERPT - 1);
    while (start > 0 && body[start - 1] !== ' ' && body[start - 1] !== '\n') start--;
    return { id, text: body.slice(start, start + EXCERPT) };
  });
  const line = withLyrics.flatMap((id) => {
    const lines = catalog.getContent('lyrics', id)!.lyrics_body.split('\n').map((l) => l.trim()).filter((l) => {
      const words = l.split(/\s+/).length;
      return words >= 4 && words <= 9;
    });
    return lines.length ? [{ id, text: rng.pick(lines) }] : [];
  });
  const short = excerpt.map((q) => ({ id: q.id, text: q.text.slice(0, 50).trimEnd() }));
  return { excerpt, line, short };
}

/** Command-line options of the index benches (`--build` is bench/fingerprint's). */
export function benchOptions() {
  return benchArgs({
    data: path.join(DATA_DIR, 'catalog-1000000'),
    build: false,
    queries: 2000,
    seconds: 8,
    connections: [1, 2, 4, 8, 16, 32],
  });
}

export interface Latency {
  queries: number;
  p50ms: number;
  p99ms: number;
  meanMs: number;
  /** CPU of this process per query (user + system, every thread: the engine runs on this one). */
  cpuUs: number;
}

/**
 * Times `fn` on each query, after running it on the first 200 to warm up (`warmup`; off where a
 * cache filled by those runs would answer their repeats).
 */
export function latency<Q>(queries: Q[], fn: (q: Q) => unknown, warmup = true): Latency {
  if (warmup) for (const q of queries.slice(0, Math.min(200, queries.length))) fn(q);
  const cpu = process.cpuUsage();
  const times = queries.map((q) => timed(fn, q));
  const used = process.cpuUsage(cpu);
  return { ...percentiles(times), cpuUs: (used.user + used.system) / Math.max(1, times.length) };
}

/**
 * Each query's least time over `rounds` passes over all the queries, and the percentiles of those:
 * what the code costs per query without the interruptions a shared machine adds to single runs
 * (machineJitter measures them). A query's runs are a pass apart, so a slow spell of the machine
 * lasting seconds does not take all of them; whatever `fn` reads afresh it reads each time. CPU per
 * query is the mean over every run.
 */
export function leastOfRuns<Q>(queries: Q[], fn: (q: Q) => unknown, rounds = 5): Latency {
  const least = queries.map(() => Infinity);
  const cpu = process.cpuUsage();
  for (let round = 0; round < rounds; round++) queries.forEach((q, i) => (least[i] = Math.min(least[i], timed(fn, q))));
  const used = process.cpuUsage(cpu);
  return { ...percentiles(least), cpuUs: (used.user + used.system) / Math.max(1, rounds * queries.length) };
}

/**
 * This machine's own spread, measured beside the figures it affects: one fixed loop of arithmetic
 * (no allocation, no memory beyond registers) of about `ms` milliseconds, timed `runs` times. On a
 * quiet machine its p99 is its p50; whatever more it takes is time the process did not get (other
 * tenants of the host, the load generator), and single-run percentiles of any code carry it too.
 */
export function machineJitter(ms = 1, runs = 2000): { p50ms: number; p99ms: number; ratio: number } {
  let x = 0; // written by the loop (a closure's variable), so the loop is not optimised away
  const loop = (n: number) => {
    for (let i = 0; i < n; i++) x = (x * 31 + i) | 0;
  };
  // Calibrate the loop to about `ms` on this machine.
  let n = 100_000;
  while (timed(loop, n) < ms / 2) n *= 2;
  const { p50ms, p99ms } = percentiles(Array.from({ length: runs }, () => timed(loop, n)));
  return { p50ms, p99ms, ratio: p99ms / p50ms };
}

function timed<Q>(fn: (q: Q) => unknown, q: Q): number {
  const t0 = performance.now();
  fn(q);
  return performance.now() - t0;
}

/** p50, p99 and mean of some times (ms), and how many. */
export function percentiles(times: number[]): { queries: number; p50ms: number; p99ms: number; meanMs: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { queries: sorted.length, p50ms: at(0.5), p99ms: at(0.99), meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

export interface SweepRow extends LoadRow {
  connections: number;
  /** Server CPU per request, all threads, µs. */
  cpuUsPerRequest: number;
  /** …by kind of thread (measure.ts cpuByThread). */
  cpu: ThreadCpu & { all: number };
}

/** The closed-loop load (measure.ts `load`) at each connection count against one process, with its CPU per request. */
export async function sweep(url: string, pid: number, requests: BenchRequest[] | undefined, connections: number[], seconds: number): Promise<SweepRow[]> {
  await load(url, { seconds: 2, connections: connections[0], requests }); // warm-up: JIT, page cache
  const rows: SweepRow[] = [];
  for (const c of connections) {
    const cpu0 = cpuByThread(pid);
    const r = await load(url, { seconds, connections: c, requests });
    const cpu = cpuPerRequest(cpu0, cpuByThread(pid), r.requests);
    if (r.non2xx || r.errors) console.error(`${url} at ${c} connections: ${r.non2xx} non-2xx, ${r.errors} without an answer`);
    rows.push({ ...r, connections: c, cpuUsPerRequest: cpu.all, cpu });
  }
  return rows;
}

/**
 * The best throughput among rows whose p99 stays within the target, or undefined. Non-2xx answers
 * disqualify a row, except up to `allowedNon2xx` of the requests (a matcher's 404 for a query
 * nothing matches is a right answer).
 */
export function heldAtTarget(rows: SweepRow[], allowedNon2xx = 0): SweepRow | undefined {
  return rows.filter((r) => r.p99ms <= P99_TARGET_MS && r.non2xx <= allowedNon2xx * r.requests).sort((a, b) => b.rps - a.rps)[0];
}

/** The sweep rows as a markdown table, each next to the bare app at the same connection count. */
export function sweepTable(rows: { name: string; row: SweepRow }[], bare: SweepRow[]): string {
  const bareAt = (c: number) => bare.find((b) => b.connections === c);
  return [
    `| endpoint | connections | requests/s | p50 ms | p99 ms | non-2xx | ${CPU_COLUMN} | bare uWS requests/s | bare CPU µs/request |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ name, row: r }) =>
      `| ${name} | ${r.connections} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50ms.toFixed(2)} | ${r.p99ms.toFixed(2)} | ${r.non2xx} | ` +
        `${cpuCell(r.cpu)} | ` +
        `${Math.round(bareAt(r.connections)?.rps ?? 0).toLocaleString('en')} | ${(bareAt(r.connections)?.cpuUsPerRequest ?? 0).toFixed(1)} |`,
    ),
  ].join('\n');
}
