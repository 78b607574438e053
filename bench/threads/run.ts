/**
 * bench/threads: one HTTP thread against several (`serve --http-threads`), on the same catalog in
 * the same run, for a fingerprint (the index pool's work, handed over by the main thread) and a
 * cached track.get (all HTTP-thread work).
 *
 *   npm run bench:threads -- [--data DIR] [--seconds 8] [--connections 32] [--threads 1,2]
 *
 * The load generator (`refrain loadtest`'s engine, closed loop, in this process) shares the machine's
 * cores with the server, so throughput says little on a small machine; what carries over is the
 * CPU per request of each kind of thread (`/proc/PID/task`): the HTTP threads' (`refrain-http`, or
 * the main thread with one), the main thread's with several (its hand-off of index work and the
 * counters), the index pool's; and how the kernel spread the requests over the HTTP threads (each
 * thread's count in /metrics). A node's ceiling is min(HTTP threads / their µs, 1 / main µs,
 * workers / pool µs) requests per µs.
 */
import { Catalog } from '../../src/catalog/store.js';
import { benchArgs } from '../lib/args.js';
import { benchKey } from '../lib/catalog.js';
import { fingerprintQuerySets, sampleTracks } from '../lib/index-bench.js';
import { CPU_COLUMN, cpuByThread, cpuCell, cpuPerRequest, load, LOAD_GENERATOR, machine, type BenchRequest, type LoadRow, type ThreadCpu } from '../lib/measure.js';
import { DATA_DIR, writeResult } from '../lib/paths.js';
import { startRefrain } from '../lib/servers.js';
import path from 'node:path';

const { data, seconds, connections, threads } = benchArgs({ data: path.join(DATA_DIR, 'catalog-1000000'), seconds: 8, connections: 32, threads: [1, 2] });

const catalog = Catalog.open(data);
const key = benchKey(catalog, 'bench/threads');
const texts = fingerprintQuerySets(catalog, 2000).excerpt;
const ids = sampleTracks(catalog, 200, 5);
const tracks = catalog.trackCount();
await catalog.close();

const workloads: [string, BenchRequest[]][] = [
  ['fingerprint, 200-character excerpt', texts.map((q) => ({ method: 'POST', path: `/ws/1.1/track.lyrics.fingerprint.post?apikey=${key}`, body: JSON.stringify({ data: { text: q.text } }) }))],
  // 200 ids cycled: after the warm-up every answer comes from the response cache.
  ['track.get, response cache hit', ids.map((id) => ({ method: 'GET', path: `/ws/1.1/track.get?track_id=${id}&apikey=${key}` }))],
];

interface Row extends LoadRow {
  workload: string;
  threads: number;
  cpu: ThreadCpu & { all: number };
  /** Requests each HTTP thread answered during the row (from /metrics), with several. */
  spread: number[];
}

/** Each HTTP thread's count of requests answered (`refrain_http_thread_requests_total`), by thread number. */
async function perThread(url: string): Promise<number[]> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts: number[] = [];
  for (const m of text.matchAll(/^refrain_http_thread_requests_total\{thread="(\d+)"\} (\d+)$/gm)) counts[Number(m[1])] = Number(m[2]);
  return counts;
}
const rows: Row[] = [];
for (const n of threads) {
  const server = await startRefrain(data, ['--http-threads', String(n)]);
  for (const [workload, requests] of workloads) {
    await load(`${server.url}/`, { seconds: 2, connections, requests });
    const counts = await perThread(server.url);
    const before = cpuByThread(server.pid);
    const r = await load(`${server.url}/`, { seconds, connections, requests });
    const cpu = cpuPerRequest(before, cpuByThread(server.pid), r.requests);
    if (r.non2xx || r.errors) console.error(`${workload}, ${n} threads: ${r.non2xx} non-2xx, ${r.errors} without an answer`);
    const spread = (await perThread(server.url)).map((c, i) => c - (counts[i] ?? 0));
    rows.push({ workload, threads: n, ...r, cpu, spread });
  }
  await server.stop();
}

/**
 * Requests a second the busiest kind of thread allows with the row's HTTP threads (each a core) and
 * `workers` pool workers: every HTTP thread, the main thread (with several) and the pool at 100%.
 */
const ceiling = (r: Row, workers: number) => {
  const http = r.threads > 1 ? r.cpu.http / r.threads : r.cpu.main;
  const limits = [1e6 / http, ...(r.threads > 1 ? [1e6 / Math.max(r.cpu.main, 1e-3)] : []), ...(r.cpu.index > 0 ? [(workers * 1e6) / r.cpu.index] : [])];
  return Math.round(Math.min(...limits));
};
/** Each thread's share of a row's requests, as percentages ("—" with one thread). */
const shares = (spread: number[]): string => {
  const total = spread.reduce((a, b) => a + b, 0);
  return spread.length < 2 || total === 0 ? '—' : spread.map((c) => `${Math.round((100 * c) / total)}%`).join(' / ');
};
const table = [
  `bench/threads — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}; ${LOAD_GENERATOR}, ${connections} keep-alive connections, ${seconds} s per row; catalog ${tracks.toLocaleString('en')} tracks`,
  '',
  `| request | HTTP threads | requests/s | p50 ms | p99 ms | ${CPU_COLUMN} | share of the requests per HTTP thread | ceiling with these HTTP threads and 15 pool workers, req/s |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) =>
    `| ${r.workload} | ${r.threads} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50ms.toFixed(2)} | ${r.p99ms.toFixed(2)} | ${cpuCell(r.cpu, 1)} | ${shares(r.spread)} | ${ceiling(r, 15).toLocaleString('en')} |`,
  ),
  '',
  'With one HTTP thread, the main thread is the HTTP thread. The ceiling takes each thread as one core and',
  'assumes the per-request costs measured here hold on the bigger machine (see docs/benchmarks.md).',
].join('\n');
console.log(table);
writeResult('threads', table, { at: new Date().toISOString(), machine: machine(), tracks, connections, seconds, rows });
