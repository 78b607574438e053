/**
 * bench/search: track.search and matcher.track.get at scale (docs/design.md §8), on a catalog with a
 * built index (default bench/.data/catalog-1000000).
 *
 *   npm run bench:search -- [--data DIR] [--queries 2000] [--seconds 8]
 *
 * Query sets (seeded) from random catalog tracks:
 *   - track.search: a title word (q_track), a title word + the artist's surname (q_track_artist),
 *     an artist name (q_artist) with f_has_lyrics=1, and a lyrics word pair (q_lyrics), in turn;
 *   - matcher.track.get: the title and artist as stored (half), with a typo in the title (a
 *     quarter) or with " - Live" appended (a quarter).
 * Reports in-engine latency (the code a pool worker runs, no cache) and the HTTP throughput held at
 * p99 ≤ 20 ms with CPU per request, next to a bare uWS app measured in the same run. The load cycles
 * through the queries, so after the first pass the matcher answers from its result cache
 * (`header.cached`), as it would for repeated traffic; the response cache is off.
 */
import { Catalog } from '../../src/catalog/store.js';
import { currentGeneration, loadGenerationAsync, readManifest } from '../../src/index/store/layout.js';
import { TextSearcher, type MatchQuery, type TrackQuery } from '../../src/index/text/search.js';
import { normalizeText, wordsOf } from '../../src/index/kernel/normalize.js';
import { benchKey } from '../lib/catalog.js';
import { benchOptions, heldAtTarget, latency, sampleTracks, sweep, sweepTable, type SweepRow } from '../lib/index-bench.js';
import { LOAD_GENERATOR, machine, type BenchRequest } from '../lib/measure.js';
import { writeResult } from '../lib/paths.js';
import { Rng } from '../lib/random.js';
import { startBare, startRefrain } from '../lib/servers.js';

const { data, queries: queryCount, seconds, connections } = benchOptions();
const manifest = readManifest(currentGeneration(data)!);

const catalog = Catalog.open(data);
const rng = new Rng(21);
const pick = <T>(xs: T[]): T => rng.pick(xs);
const sample = sampleTracks(catalog, queryCount, 20, (id) => catalog.getTrack(id)?.has_lyrics === 1);

interface Search {
  params: Record<string, string>;
  query: TrackQuery;
}
const searches: Search[] = sample.map((id, i): Search => {
  const t = catalog.getTrack(id)!;
  const title = wordsOf(normalizeText(t.track_name)).filter((w) => w.length > 2);
  const artist = wordsOf(normalizeText(t.artist_name));
  const lyrics = wordsOf(normalizeText(catalog.getContent('lyrics', id)?.lyrics_body ?? '')).filter((w) => w.length > 3);
  const base = { offset: 0, limit: 10 };
  switch (i % 4) {
    case 0: {
      const w = pick(title.length ? title : artist);
      return { params: { q_track: w }, query: { ...base, words: { q_track: w } } };
    }
    case 1: {
      const w = `${pick(title.length ? title : artist)} ${artist[artist.length - 1]}`;
      return { params: { q_track_artist: w }, query: { ...base, words: { q_track_artist: w } } };
    }
    case 2:
      return { params: { q_artist: t.artist_name, f_has_lyrics: '1' }, query: { ...base, words: { q_artist: t.artist_name }, hasLyrics: true } };
    default: {
      const w = lyrics.length > 1 ? `${pick(lyrics)} ${pick(lyrics)}` : t.track_name;
      return { params: { q_lyrics: w }, query: { ...base, words: { q_lyrics: w } } };
    }
  }
});

const matches: MatchQuery[] = sample.map((id, i) => {
  const t = catalog.getTrack(id)!;
  if (i % 4 === 2 && t.track_name.length > 4) {
    const at = rng.int(1, t.track_name.length - 2);
    return { title: t.track_name.slice(0, at) + t.track_name.slice(at + 1), artist: t.artist_name };
  }
  if (i % 4 === 3) return { title: `${t.track_name} - Live`, artist: t.artist_name };
  return { title: t.track_name, artist: t.artist_name };
});
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
  `catalog ${manifest.parts.text.tracks.toLocaleString('en')} tracks, ${manifest.parts.text.artists.toLocaleString('en')} artists; ${sample.length} queries of each kind (seed 20)`,
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
