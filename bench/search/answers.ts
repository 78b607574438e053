/**
 * bench/search/answers: the text index's searchers of two builds side by side, in one process, each
 * over its own data directory's generation (an index format change needs one per build): whether
 * they give the same answers, and how long each takes, interleaved round by round.
 *
 *   node dist/bench/search/answers.js --engines DIST_A,DIST_B --data DIR_A,DIR_B [--queries 2000] [--rounds 5] [--kinds q_lyrics,matcher]
 *
 * `--engines` names each build's dist/ directory. The queries are bench/search's (bench/lib/search-queries.ts)
 * and, from the same tracks: `q` over title, artist and lyrics (unions) grouped by recording for 500 of the tracks, artist.search by
 * the artist's name as stored and with a letter dropped (the misspelling fallback's vote board), and
 * the fingerprint's tie filter (tracksHoldingWords) over 200 sampled tracks and two words of one's
 * lyrics. Answers are compared query by query (every id, in order, and `available`); times are the
 * median over rounds of each round's p50, p99 and mean per query.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Catalog } from '../../src/catalog/store.js';
import type { LoadedIndex } from '../../src/index/store/layout.js';
import type { ArtistQuery, MatchQuery, TextSearcher, TrackQuery } from '../../src/index/text/search.js';
import { normalizeText, wordsOf } from '../../src/index/kernel/normalize.js';
import { benchArgs } from '../lib/args.js';
import { searchQuerySets } from '../lib/search-queries.js';
import { ROOT } from '../lib/paths.js';

const args = benchArgs({
  engines: path.join(ROOT, 'dist'),
  data: path.join(ROOT, 'bench/.data/catalog-1000000'),
  queries: 2000,
  rounds: 5,
  /** Only the kinds whose names hold one of these (comma-separated), e.g. q_lyrics,matcher. */
  kinds: '',
});
const dists = args.engines.split(',');
const dirs = args.data.split(',');
if (dirs.length !== dists.length) throw new Error('--data names one data directory per build of --engines');

const catalog = Catalog.open(dirs[0]);
const { sample, searches, matches } = searchQuerySets(catalog, args.queries);
const lyricWords = (id: number): string[] => wordsOf(normalizeText(catalog.getContent('lyrics', id)?.lyrics_body ?? '')).filter((w) => w.length > 3);

type Run = (s: TextSearcher) => unknown;
const every: Record<string, Run[]> = {
  ...Object.fromEntries(
    ['q_track', 'q_track_artist', 'q_artist', 'q_lyrics'].map((param) => [
      `track.search ${param}`,
      searches.filter((s) => param in s.params).map((s): Run => (e) => e.tracks(s.query, Infinity)),
    ]),
  ),
  'track.search q, by recording': sample.slice(0, 500).map((id) => {
    const title = wordsOf(normalizeText(catalog.getTrack(id)!.track_name));
    const query: TrackQuery = { words: { q: title.slice(0, 2).join(' ') }, groupCommontrack: true, offset: 0, limit: 10 };
    return (e) => e.tracks(query, Infinity);
  }),
  'artist.search': sample.flatMap((id) => {
    const name = catalog.getTrack(id)!.artist_name;
    const dropped = name.length > 4 ? name.slice(0, 2) + name.slice(3) : name;
    const queries: ArtistQuery[] = [{ name, offset: 0, limit: 10 }, { name: dropped, offset: 0, limit: 10 }];
    return queries.map((q): Run => (e) => e.artists(q, Infinity));
  }),
  matcher: matches.map((m: MatchQuery) => (e) => e.match(m, Infinity)),
  'tie filter': sample.slice(0, 500).map((id, i) => {
    const tracks = sample.slice(i, i + 200);
    const words = lyricWords(id).slice(0, 2);
    return (e) => e.tracksHoldingWords(tracks, words);
  }),
};

const wanted = args.kinds.split(',').filter(Boolean);
const kinds = Object.fromEntries(Object.entries(every).filter(([kind]) => wanted.length === 0 || wanted.some((w) => kind.includes(w))));

interface Build {
  dist: string;
  searcher: TextSearcher;
}
const builds: Build[] = [];
for (const [i, dist] of dists.entries()) {
  const at = (module: string) => pathToFileURL(path.join(path.resolve(dist), module)).href;
  const layout = (await import(at('src/index/store/layout.js'))) as typeof import('../../src/index/store/layout.js');
  const store = (await import(at('src/catalog/store.js'))) as typeof import('../../src/catalog/store.js');
  const search = (await import(at('src/index/text/search.js'))) as typeof import('../../src/index/text/search.js');
  const generation = layout.currentGeneration(dirs[i]);
  if (!generation) throw new Error(`${dirs[i]} has no index generation this build reads (run \`refrain index\` with it)`);
  const index: LoadedIndex = await layout.loadGenerationAsync(generation);
  builds.push({ dist, searcher: new search.TextSearcher(index, store.Catalog.open(dirs[i])) });
}

console.log(`${sample.length} tracks sampled; ${Object.entries(kinds).map(([k, q]) => `${q.length} ${k}`).join(', ')}`);
if (builds.length === 2) {
  for (const [kind, runs] of Object.entries(kinds)) {
    let differ = 0;
    for (const [i, run] of runs.entries()) {
      const [a, b] = builds.map((x) => JSON.stringify(run(x.searcher)));
      if (a !== b && differ++ < 3) console.log(`  ${kind} #${i} differs:\n    ${a.slice(0, 300)}\n    ${b.slice(0, 300)}`);
    }
    console.log(`${kind}: ${differ} of ${runs.length} answers differ`);
  }
}

const figures = builds.map(() => Object.fromEntries(Object.keys(kinds).map((k) => [k, [] as number[][]])));
for (let round = 0; round < args.rounds; round++) {
  for (const [b, build] of builds.entries()) {
    for (const [kind, runs] of Object.entries(kinds)) {
      const times = runs.map((run) => {
        const t0 = performance.now();
        run(build.searcher);
        return performance.now() - t0;
      });
      const sorted = [...times].sort((x, y) => x - y);
      figures[b][kind].push([sorted[Math.floor(0.5 * sorted.length)], sorted[Math.floor(0.99 * sorted.length)], times.reduce((s, t) => s + t, 0) / times.length]);
    }
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
console.log(`\nms per query, median of ${args.rounds} interleaved rounds (p50 / p99 / mean):`);
for (const kind of Object.keys(kinds)) {
  const cells = builds.map((_, b) => [0, 1, 2].map((f) => median(figures[b][kind].map((r) => r[f])).toFixed(3)).join(' / '));
  console.log(`${kind.padEnd(30)} ${cells.join('   |   ')}`);
}
