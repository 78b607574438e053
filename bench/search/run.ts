/**
 * bench/search: track.search and matcher.track.get at scale (docs/design.md §8), on a catalog with a
 * built index (default bench/.data/catalog-1000000).
 *
 *   npm run bench:search -- [--data DIR] [--queries 2000] [--seconds 8]
 *
 * Query sets: bench/lib/search-queries.ts (seeded).
 * Reports in-engine latency (the code a pool worker runs, no cache) and the HTTP throughput held at
 * p99 ≤ 20 ms with CPU per request, next to a bare uWS app measured in the same run; both with each
 * kernel (`--engine ts` and `native`, issue 17), the answers of the two compared. The load cycles
 * through the queries, so after the first pass the matcher answers from its result cache
 * (`header.cached`), as it would for repeated traffic; the response cache is off.
 */
import { Catalog } from '../../src/catalog/store.js';
import { currentGeneration, loadGenerationAsync, readManifest } from '../../src/index/store/layout.js';
import { TextSearcher } from '../../src/index/text/search.js';
import { selectKernel, tsKernel } from '../../src/index/kernel/kernel.js';
import { benchKey } from '../lib/catalog.js';
import { benchOptions, heldAtTarget, latency, sweep, sweepTable, type SweepRow } from '../lib/index-bench.js';
import { searchQuerySets } from '../lib/search-queries.js';
import { LOAD_GENERATOR, machine, type BenchRequest } from '../lib/measure.js';
import { writeResult } from '../lib/paths.js';
import { startBare, startRefrain } from '../lib/servers.js';

const { data, queries: queryCount, seconds, connections } = benchOptions();
const manifest = readManifest(currentGeneration(data)!);

const catalog = Catalog.open(data);
const { searches, matches } = searchQuerySets(catalog, queryCount);
const key = benchKey(catalog, 'bench/search');

const index = await loadGenerationAsync(currentGeneration(data)!);
const nativeKernel = selectKernel('native');
if (!nativeKernel.kernel) throw new Error(`bench/search compares the kernels: the ${nativeKernel.why}; run npm run build:native`);
const engines = { ts: new TextSearcher(index, catalog, tsKernel), native: new TextSearcher(index, catalog, nativeKernel.kernel) };
const inEngine = (engine: TextSearcher) => ({
  search: latency(searches, (s) => engine.tracks(s.query, Infinity)),
  match: latency(matches, (m) => engine.match(m, Infinity)),
});
const kernels = { ts: inEngine(engines.ts), native: inEngine(engines.native) };
const { search: searchLatency, match: matchLatency } = kernels.native;
let differing = 0;
for (const s of searches) if (JSON.stringify(engines.ts.tracks(s.query, Infinity)) !== JSON.stringify(engines.native.tracks(s.query, Infinity))) differing++;
for (const m of matches) if (JSON.stringify(engines.ts.match(m, Infinity)) !== JSON.stringify(engines.native.match(m, Infinity))) differing++;
const engine = engines.native;
const matchedShare = matches.filter((m) => engine.match(m, Infinity).track !== undefined).length / matches.length;
await catalog.close();

const bare = await startBare();
const bareRows = await sweep(bare.url, bare.pid, undefined, connections, seconds);
bare.stop();
const qs = (p: Record<string, string>) => new URLSearchParams({ ...p, apikey: key }).toString();
const searchRequests = searches.map((s): BenchRequest => ({ method: 'GET', path: `/ws/1.1/track.search?${qs(s.params)}` }));
const matchRequests = matches.map((m): BenchRequest => ({ method: 'GET', path: `/ws/1.1/matcher.track.get?${qs({ q_track: m.title, q_artist: m.artist })}` }));
// track.search with the TypeScript kernel's server first (--engine ts), then everything with the native one's.
const tsServer = await startRefrain(data, ['--response-cache', '0', '--engine', 'ts']);
const tsSearchRows = await sweep(tsServer.url + '/', tsServer.pid, searchRequests, connections, seconds);
await tsServer.stop();
const server = await startRefrain(data, ['--response-cache', '0', '--engine', 'native']);
const searchRows = await sweep(server.url + '/', server.pid, searchRequests, connections, seconds);
const matchRows = await sweep(server.url + '/', server.pid, matchRequests, connections, seconds);
await server.stop();

const cpuPair = (ts: number, native: number) => `${ts.toFixed(0)} → ${native.toFixed(0)} µs (${(native / ts).toFixed(2)})`;
const held = (rows: SweepRow[], allowedNon2xx = 0) => {
  const h = heldAtTarget(rows, allowedNon2xx);
  return h ? `${Math.round(h.rps).toLocaleString('en')} req/s (${h.connections} connections, p99 ${h.p99ms.toFixed(1)} ms)` : 'not reached';
};
const summary = [
  `bench/search — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}; ${LOAD_GENERATOR}, ${seconds} s per row; response cache off`,
  `catalog ${manifest.parts.text.tracks.toLocaleString('en')} tracks, ${manifest.parts.text.artists.toLocaleString('en')} artists; ${searches.length} queries of each kind (seed 20)`,
  '',
  '| figure | track.search | matcher.track.get |',
  '|---|---:|---:|',
  `| in the engine (native kernel), p50 / p99 | ${searchLatency.p50ms.toFixed(2)} / ${searchLatency.p99ms.toFixed(2)} ms | ${matchLatency.p50ms.toFixed(2)} / ${matchLatency.p99ms.toFixed(2)} ms |`,
  `| … with the TypeScript kernel | ${kernels.ts.search.p50ms.toFixed(2)} / ${kernels.ts.search.p99ms.toFixed(2)} ms | ${kernels.ts.match.p50ms.toFixed(2)} / ${kernels.ts.match.p99ms.toFixed(2)} ms |`,
  `| in the engine, CPU per query: ts → native (native ÷ ts) | ${cpuPair(kernels.ts.search.cpuUs, searchLatency.cpuUs)} | ${cpuPair(kernels.ts.match.cpuUs, matchLatency.cpuUs)} |`,
  `| index pool (worker) CPU per track.search over HTTP, at ${connections.join(', ')} connections: ts; native | ${tsSearchRows.map((r) => r.cpu.index.toFixed(0)).join(', ')} µs; ${searchRows.map((r) => r.cpu.index.toFixed(0)).join(', ')} µs | |`,
  `| the two kernels' answers on the ${searches.length + matches.length} queries | ${differing === 0 ? 'identical' : `${differing} differ`} | |`,
  `| HTTP throughput at p99 ≤ 20 ms, --engine ts | ${held(tsSearchRows)} | |`,
  `| HTTP throughput at p99 ≤ 20 ms, --engine native | ${held(searchRows)} | ${held(matchRows, 0.01)} (404s for unmatched queries allowed; repeated queries are answered from the matcher cache) |`,
  `| matcher: queries answered with a track | | ${(100 * matchedShare).toFixed(1)}% |`,
  '',
  sweepTable([
    ...tsSearchRows.map((row) => ({ name: 'track.search, --engine ts', row })),
    ...searchRows.map((row) => ({ name: 'track.search, --engine native', row })),
    ...matchRows.map((row) => ({ name: 'matcher.track.get, --engine native', row })),
  ], bareRows),
].join('\n');
console.log(summary);
writeResult('search', summary, { at: new Date().toISOString(), machine: machine(), data, kernels, differing, matchedShare, searchRows, tsSearchRows, matchRows, bareRows });
if (differing > 0) process.exitCode = 1;
