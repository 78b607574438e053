/**
 * bench/http: throughput and latency of id lookups over keep-alive HTTP, next to a bare uWS app
 * measured in the same run on the same machine (docs/design.md §8: target ≥ 50% of the bare app).
 *
 *   npm run bench:http -- [--tracks 100000] [--data DIR] [--seconds 10] [--connections 50] [--http-threads 1]
 *                         [--methods track.get,track.lyrics.get] (also track.subtitle.get, track.richsync.get)
 *
 * `--http-threads 1,2` measures the server with each (serve --http-threads), rows one after the other.
 * The catalog is generated and imported on first use (kept in bench/.data/). The load generator is
 * `refrain loadtest`'s engine in a closed loop (bench/lib/measure.ts `load`), in this process; it
 * shares the 2 cores with the server. Each method is measured with two access patterns over 20,000
 * requests that it cycles through:
 *   - zipf: track ids drawn by popularity rank with P(rank) ∝ 1/rank (API traffic follows popular
 *     songs), so the response cache serves most requests;
 *   - uniform, cache off: ids drawn uniformly from the whole catalog against a server started with
 *     `--response-cache 0`, so every request reads LMDB, presents and serialises (the worst case).
 * CPU per request is the server process's user+system time over the run / requests.
 */
import path from 'node:path';
import { Catalog, type ContentKind } from '../../src/catalog/store.js';
import { hasContent } from '../../src/api/lookup.js';
import { zipfRank } from '../../src/generate/distributions.js';
import { benchArgs } from '../lib/args.js';
import { benchKey, makeCatalogIfMissing } from '../lib/catalog.js';
import { CPU_COLUMN, cpuByThread, cpuCell, cpuPerRequest, load, LOAD_GENERATOR, machine, type BenchRequest, type LoadRow, type ThreadCpu } from '../lib/measure.js';
import { DATA_DIR, writeResult } from '../lib/paths.js';
import { Rng } from '../lib/random.js';
import { startBare, startRefrain } from '../lib/servers.js';

const { tracks, data: dataOption, seconds, connections, 'http-threads': httpThreads, methods } = benchArgs({
  tracks: 100000, data: undefined, seconds: 10, connections: 50, 'http-threads': [1], methods: 'track.get,track.lyrics.get',
});
/** The methods measured, each asked for tracks that have what it returns. */
const METHODS = methods.split(',');
const NEEDS: Record<string, ContentKind> = {
  'track.get': 'lyrics',
  'track.lyrics.get': 'lyrics',
  'track.subtitle.get': 'subtitles',
  'track.richsync.get': 'richsync',
};
for (const m of METHODS) if (!NEEDS[m]) throw new Error(`--methods: ${m} is not one of ${Object.keys(NEEDS).join(', ')}`);
const data = dataOption ?? path.join(DATA_DIR, `catalog-${tracks}`);

const REQUESTS = 20_000;

type Ids = Record<'zipf' | 'uniform', number[]>;

async function prepare(): Promise<{ key: string; ids: Record<string, Ids> }> {
  await makeCatalogIfMissing(data, { tracks, seed: 7, file: path.join(data, 'catalog.jsonl.gz') });
  const catalog = Catalog.open(data);
  try {
    const popular = [...catalog.tracksByPopularity()];
    const ids: Record<string, Ids> = {};
    for (const method of METHODS) {
      const ranked = popular.filter((id) => hasContent(catalog.getTrack(id)!, NEEDS[method]));
      const rng = new Rng(7);
      const uniform = Array.from({ length: REQUESTS }, () => rng.pick(ranked));
      const zipf = Array.from({ length: REQUESTS }, () => ranked[zipfRank(rng.float(), ranked.length)]);
      ids[method] = { zipf, uniform };
    }
    return { key: benchKey(catalog, 'bench/http'), ids };
  } finally {
    await catalog.close();
  }
}

interface Row extends LoadRow {
  name: string;
  /** Server CPU per request, µs, by kind of thread (measure.ts cpuByThread). */
  cpu: ThreadCpu & { all: number };
}

async function measure(name: string, pid: number, url: string, requests?: BenchRequest[]): Promise<Row> {
  await load(url, { seconds: 2, connections, requests }); // warm-up: JIT, page cache
  const cpu0 = cpuByThread(pid);
  const r = await load(url, { seconds, connections, requests });
  const cpu = cpuPerRequest(cpu0, cpuByThread(pid), r.requests);
  if (r.non2xx || r.errors) console.error(`${name}: ${r.non2xx} non-2xx, ${r.errors} without an answer`);
  return { name, ...r, cpu };
}

const { key, ids } = await prepare();
const rows: Row[] = [];

const bare = await startBare();
rows.push(await measure('bare uWS hello', bare.pid, bare.url));
bare.stop();

async function serve(extra: string[]) {
  const server = await startRefrain(data, extra);
  return { ...server, url: `${server.url}/` };
}

for (const threads of httpThreads) {
  for (const [pattern, flags] of [['zipf', []], ['uniform', ['--response-cache', '0']]] as const) {
    const server = await serve([...flags, '--http-threads', String(threads)]);
    for (const method of METHODS) {
      const requests = ids[method][pattern].map((id): BenchRequest => ({ method: 'GET', path: `/ws/1.1/${method}?track_id=${id}&apikey=${key}` }));
      const label = `${pattern === 'zipf' ? 'zipf ids, cache on' : 'uniform ids, cache off'}${httpThreads.length > 1 || threads > 1 ? `, ${threads} HTTP thread${threads > 1 ? 's' : ''}` : ''}`;
      rows.push(await measure(`${method} (${label})`, server.pid, server.url, requests));
    }
    await server.stop();
  }
}

const base = rows[0];
const table = [
  `bench/http — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}; ${LOAD_GENERATOR}, ${connections} keep-alive connections, ${seconds} s per row; catalog ${tracks.toLocaleString('en')} tracks`,
  '',
  `| endpoint | requests/s | vs bare uWS | p50 ms | p90 ms | p99 ms | ${CPU_COLUMN} |`,
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) =>
    `| ${r.name} | ${Math.round(r.rps).toLocaleString('en')} | ${((r.rps / base.rps) * 100).toFixed(0)}% | ${r.p50ms.toFixed(2)} | ${r.p90ms.toFixed(2)} | ${r.p99ms.toFixed(2)} | ` +
      `${cpuCell(r.cpu, 1)} |`,
  ),
].join('\n');
console.log(table);
writeResult('http', table, { at: new Date().toISOString(), machine: machine(), tracks, connections, seconds, rows });
