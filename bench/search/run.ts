/**
 * bench/search: track.search and matcher.track.get at scale (docs/design.md §8), on a catalog with a
 * built index (default bench/.data/catalog-1000000).
 *
 *   npm run bench:search -- [--data DIR] [--queries 2000] [--seconds 8]
 *
 * Query sets: bench/lib/search-queries.ts (seeded).
 * Reports in-engine latency (the code a pool worker runs, no cache) and the HTTP throughput held at
 * p99 ≤ 20 ms with CPU per request, next to a bare uWS app measured in the same run. The load cycles
 * through the queries, so after the first pass the matcher answers from its result cache
 * (`header.cached`), as it would for repeated traffic; the response cache is off.
 */
import { Catalog } from '../../src/catalog/store.js';
import { currentGeneration, loadGenerationAsync, readManifest } from '../../src/index/store/layout.js';
import { TextSearcher } from '../../src/index/text/search.js';
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
const engine = new TextSearcher(index, catalog);
const searchLatency = latency(searches, (s) => engine.tracks(s.query, Infinity));
const matchLatency = latency(matches, (m) => engine.match(m, Infinity));
const matchedShare = matches.filter((m) => engine.match(m, Infinity).track !== undefined).length / matches.length;
await catalog.close();

const bare = await startBare();
const bareRows = await sweep(bare.url, bare.pid, undefined, connections, seconds);
bare.stop();
const server = await startRefrain(data, ['--response-cache', '0']);
const qs = (p: Record<string, string>) => new URLSearchParams({ ...p, apikey: key }).toString();
const searchRequests = searches.map((s): BenchRequest => ({ method: 'GET', path: `/ws/1.1/track.search?${qs(s.params)}` }));
const matchRequests = matches.map((m): BenchRequest => ({ method: 'GET', path: `/ws/1.1/matcher.track.get?${qs({ q_track: m.title, q_artist: m.artist })}` }));
const searchRows = await sweep(server.url + '/', server.pid, searchRequests, connections, seconds);
const matchRows = await sweep(server.url + '/', server.pid, matchRequests, connections, seconds);
server.stop();

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
  `| in the engine, p50 / p99 | ${searchLatency.p50ms.toFixed(2)} / ${searchLatency.p99ms.toFixed(2)} ms | ${matchLatency.p50ms.toFixed(2)} / ${matchLatency.p99ms.toFixed(2)} ms |`,
  `| HTTP throughput at p99 ≤ 20 ms | ${held(searchRows)} | ${held(matchRows, 0.01)} (404s for unmatched queries allowed; repeated queries are answered from the matcher cache) |`,
  `| matcher: queries answered with a track | | ${(100 * matchedShare).toFixed(1)}% |`,
  '',
  sweepTable([...searchRows.map((row) => ({ name: 'track.search', row })), ...matchRows.map((row) => ({ name: 'matcher.track.get', row }))], bareRows),
].join('\n');
console.log(summary);
writeResult('search', summary, { at: new Date().toISOString(), machine: machine(), data, searchLatency, matchLatency, matchedShare, searchRows, matchRows, bareRows });
