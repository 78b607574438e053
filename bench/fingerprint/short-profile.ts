/**
 * bench/fingerprint/short-profile: where the time of short fingerprint queries goes, in the engine
 * (no HTTP), on a data directory with a built index, opened read-only as bench/fingerprint does.
 *
 *   node dist/bench/fingerprint/short-profile.js --mode profile [--data DIR] [--set line|short|excerpt]
 *   node dist/bench/fingerprint/short-profile.js --mode dump --engines DIST --out FILE
 *   node dist/bench/fingerprint/short-profile.js --mode check --engines DIST --out FILE
 *   (two dumps compared set by set: bench/fingerprint/answer-diff.ts)
 *   node dist/bench/fingerprint/short-profile.js --mode ab --engines DIST_A,DIST_B [--rounds 5] [--sets excerpt,line,short]
 *   node dist/bench/fingerprint/short-profile.js --mode least --engines DIST_A,DIST_B [--rounds 5] [--afresh]
 *   (each query's least time, all cached; with --afresh, every lyric read and normalised in each run)
 *   node dist/bench/fingerprint/short-profile.js --mode slow [--set line] (only the slowest 2%, for --cpu-prof)
 *   node dist/bench/fingerprint/short-profile.js --mode cand --engines DIST_A,DIST_B (the candidate stage alone)
 *
 * The query sets are bench/fingerprint's (seed 11 tracks, seed 12 offsets: 200-character excerpts,
 * one line of 4–9 words, the excerpts' first 50 characters) and, for dump/check, every query of
 * bench/quality's query set (--quality FILE). `--engines` names a build's dist/ directory, so the
 * code of two commits runs against one loaded index and catalog in one process, interleaved
 * (--mode ab reports wall-clock and process CPU per query: the median over rounds of each round's
 * p50/p99/mean, with their spread). `CAPTURE=FILE` saves the arguments of the text index's
 * tracksHoldingWords calls (--mode profile) for a micro-benchmark. `--kernel ts|native` picks the
 * kernel (default ts, the reference). Lyrics are read uncached, as in bench/fingerprint (a pool
 * worker caches them: index/service/engines.ts CatalogCache), except in --mode least without --afresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Catalog } from '../../src/catalog/store.js';
import { currentGeneration, loadGenerationAsync, type LoadedIndex } from '../../src/index/store/layout.js';
import type { Engines } from '../../src/index/service/engines.js';
import type * as KernelModule from '../../src/index/kernel/kernel.js';
import type { EngineName, Kernel } from '../../src/index/kernel/kernel.js';
import type { FingerprintHit } from '../../src/index/fingerprint/search.js';
import { normalizeText } from '../../src/index/kernel/normalize.js';
import { benchArgs } from '../lib/args.js';
import { fingerprintQuerySets, percentiles } from '../lib/index-bench.js';
import { ROOT } from '../lib/paths.js';
import { benchPathsIn } from '../quality/catalog.js';
import { unrelatedPool } from '../quality/queries.js';

const args = benchArgs({
  data: path.join(ROOT, 'bench/.data/quality-1000000/refrain'),
  quality: path.join(ROOT, 'bench/.data/quality-1000000/queries-seed1-per200.json'),
  mode: 'profile',
  engines: path.join(ROOT, 'dist'),
  out: undefined,
  set: 'line',
  queries: 2000,
  rounds: 5,
  size: 10,
  /** The sets --mode ab and cand time. */
  sets: 'excerpt,line,short',
  /** The kernel the engines use: ts (the reference) or native (the addon, as a server with --engine native). */
  kernel: 'ts',
  /** --mode least: read and normalise every lyric in each run, as bench/fingerprint's least-of-runs figure does. */
  afresh: false,
});

const catalog = Catalog.open(args.data);
const { excerpt, line, short } = fingerprintQuerySets(catalog, args.queries);
const allSets: Record<string, { id: number; text: string }[]> = { excerpt, line, short };
/** The sets --mode ab and cand time. */
const sets = Object.fromEntries(Object.entries(allSets).filter(([name]) => args.sets.split(',').includes(name)));

const index = await loadGenerationAsync(currentGeneration(args.data)!);
/** Normalised lyrics, uncached, as bench/fingerprint reads them (normalised by the kernel's `normalize`). */
let lyricsCalls = 0;
let lyricsMs = 0;
const lyricsFor = (normalize: (text: string) => string) => (id: number): string | undefined => {
  const t0 = performance.now();
  const body = catalog.getContent('lyrics', id)?.lyrics_body;
  const out = body === undefined ? undefined : normalize(body);
  lyricsMs += performance.now() - t0;
  lyricsCalls++;
  return out;
};

type LyricsOf = (id: number) => string | undefined;

/**
 * A build's engines, reading lyrics uncached (lyricsOf), or with everything it reads cached for
 * good (`cached`: the build's own CatalogCache, unbounded; a build from before it, which took the
 * lyrics' function alone, gets that function memoised).
 */
async function enginesOf(dist: string, cached = false): Promise<Engines> {
  const at = (file: string) => pathToFileURL(path.join(path.resolve(dist), file)).href;
  const mod = (await import(at('src/index/service/engines.js'))) as {
    makeEngines: (index: LoadedIndex, catalog: Catalog, reads: object | LyricsOf, engine: Kernel) => Engines;
    CatalogCache?: new (catalog: Catalog, options: { engine: Kernel; lyrics: number; recordings: number }) => object;
  };
  const { selectKernel } = (await import(at('src/index/kernel/kernel.js'))) as typeof KernelModule;
  const chosen = selectKernel(args.kernel as EngineName);
  if (!chosen.kernel) throw new Error(`--kernel ${args.kernel}: ${chosen.why}`);
  const engine = chosen.kernel;
  const lyricsOf = lyricsFor(engine.normalizeText);
  let reads: object | LyricsOf;
  if (mod.CatalogCache) reads = cached ? new mod.CatalogCache(catalog, { engine, lyrics: Infinity, recordings: Infinity }) : { lyricsOf };
  else if (!cached) reads = lyricsOf;
  else {
    const kept = new Map<number, string | undefined>();
    reads = (id: number) => (kept.has(id) ? kept.get(id) : kept.set(id, lyricsOf(id)).get(id));
  }
  return mod.makeEngines(index, catalog, reads, engine);
}

const answer = (hits: FingerprintHit[]) => hits.map((h) => [h.track, h.commontrack, h.similarity, h.covered, h.longest, h.tracks]);

/** Every query, with the tracks that are its right answers (bench/quality's `relevant`; the source track of the others). */
function allQueries(): { set: string; text: string; relevant: number[] }[] {
  const quality = (JSON.parse(fs.readFileSync(args.quality, 'utf8')) as { queries: { bucket: string; text: string; relevant?: number[] }[] }).queries;
  return [
    ...quality.map((q) => ({ set: `quality:${q.bucket}`, text: q.text, relevant: q.relevant ?? [] })),
    ...excerpt.map((q) => ({ set: 'excerpt', text: q.text, relevant: [q.id] })),
    ...line.map((q) => ({ set: 'line', text: q.text, relevant: [q.id] })),
    ...short.map((q) => ({ set: 'short', text: q.text, relevant: [q.id] })),
    ...unrelatedAll().map((text) => ({ set: 'unrelated-all', text, relevant: [] })),
  ];
}

/** Every unrelated text bench/quality screens (its screening of the whole pool), when the query set sits in a quality bench directory. */
function unrelatedAll(): string[] {
  const paths = benchPathsIn(path.dirname(args.quality));
  if (!fs.existsSync(paths.heldOut)) return [];
  const seed = Number(/seed(\d+)/.exec(path.basename(args.quality))?.[1] ?? 1);
  return unrelatedPool(paths, seed).map((u) => u.text);
}

function stats(times: number[]) {
  const { p50ms: p50, p99ms: p99, meanMs: mean } = percentiles(times);
  return { p50, p99, mean };
}

/** Per query: wall-clock ms, and CPU ms of the process (less sensitive to other processes taking the cores). */
function time(engines: Engines, queries: { text: string }[]): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const q of queries) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    engines.fingerprint.search(q.text, args.size, Infinity);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

const fmt = (n: number) => n.toFixed(2);

if (args.mode === 'dump' || args.mode === 'check') {
  const engines = await enginesOf(args.engines);
  const queries = allQueries();
  const results = queries.map((q) => ({ set: q.set, text: q.text, relevant: q.relevant, hits: answer(engines.fingerprint.search(q.text, args.size, Infinity)) }));
  if (args.mode === 'dump') {
    fs.writeFileSync(args.out!, JSON.stringify(results));
    console.log(`${results.length} answers written to ${args.out}`);
  } else {
    const before = JSON.parse(fs.readFileSync(args.out!, 'utf8')) as typeof results;
    let differ = 0;
    for (let i = 0; i < results.length; i++) {
      if (before[i].text !== results[i].text) throw new Error(`query ${i} is not the same query`);
      if (JSON.stringify(before[i].hits) !== JSON.stringify(results[i].hits)) {
        differ++;
        if (differ <= 10) console.log(`DIFFERS ${results[i].set} ${JSON.stringify(results[i].text)}\n  before ${JSON.stringify(before[i].hits)}\n  after  ${JSON.stringify(results[i].hits)}`);
      }
    }
    console.log(`${results.length} queries, ${differ} with a different answer`);
    if (differ > 0) process.exitCode = 1;
  }
} else if (args.mode === 'ab') {
  const dists = args.engines.split(',');
  const all = await Promise.all(dists.map((d) => enginesOf(d)));
  const times: Record<string, Record<string, { wall: ReturnType<typeof stats>[]; cpu: ReturnType<typeof stats>[] }>> = {};
  // Warm every engine on every set once.
  for (const e of all) for (const qs of Object.values(sets)) time(e, qs.slice(0, 200));
  for (let round = 0; round < args.rounds; round++) {
    for (const [name, qs] of Object.entries(sets)) {
      // Alternate which engine goes first.
      const order = round % 2 === 0 ? all.map((_, i) => i) : all.map((_, i) => all.length - 1 - i);
      for (const i of order) {
        const t = time(all[i], qs);
        const w = stats(t.wall);
        const c = stats(t.cpu);
        const slot = ((times[name] ??= {})[dists[i]] ??= { wall: [], cpu: [] });
        slot.wall.push(w);
        slot.cpu.push(c);
        console.error(`round ${round} ${name} ${dists[i]}: wall p50 ${fmt(w.p50)} p99 ${fmt(w.p99)} mean ${fmt(w.mean)}; cpu p50 ${fmt(c.p50)} p99 ${fmt(c.p99)} mean ${fmt(c.mean)}`);
      }
    }
  }
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const cell = (v: number[]) => `${fmt(med(v))} (${fmt(Math.min(...v))}–${fmt(Math.max(...v))})`;
  for (const kind of ['wall', 'cpu'] as const) {
    console.log(`\n${kind === 'wall' ? 'wall-clock' : 'process CPU'} ms per query: median of ${args.rounds} rounds (min–max)\n`);
    console.log('| set | engine | p50 | p99 | mean |');
    console.log('|---|---|---|---|---|');
    for (const [name, byEngine] of Object.entries(times)) {
      for (const [dist, runs] of Object.entries(byEngine)) {
        const r = runs[kind];
        console.log(`| ${name} (${sets[name].length}) | ${dist} | ${cell(r.map((x) => x.p50))} | ${cell(r.map((x) => x.p99))} | ${cell(r.map((x) => x.mean))} |`);
      }
    }
  }
} else if (args.mode === 'least') {
  // Each query's least wall-clock time over --rounds runs per build (after one untimed run that
  // fills the build's caches: nothing is read afresh after it, unless --afresh), the builds taking
  // turns query by query: what the code costs per query without the interruptions a shared machine
  // adds to a single run (bench/fingerprint reports its spread beside the same figure).
  const dists = args.engines.split(',');
  const all = await Promise.all(dists.map((d) => enginesOf(d, !args.afresh)));
  console.log(`each query's least wall-clock ms of ${args.rounds} runs, ${args.afresh ? 'every lyric read and normalised in each' : 'everything it reads cached'}\n`);
  console.log('| set | engine | p50 | p99 | mean |');
  console.log('|---|---|---|---|---|');
  for (const [name, qs] of Object.entries(sets)) {
    const least = all.map(() => qs.map(() => Infinity));
    for (let round = 0; round <= args.rounds; round++) {
      qs.forEach((q, k) => {
        for (let j = 0; j < all.length; j++) {
          const i = (round + k) % 2 === 0 ? j : all.length - 1 - j;
          const t0 = performance.now();
          all[i].fingerprint.search(q.text, args.size, Infinity);
          if (round > 0) least[i][k] = Math.min(least[i][k], performance.now() - t0);
        }
      });
    }
    least.forEach((times, i) => {
      const s = stats(times);
      console.log(`| ${name} (${qs.length}) | ${dists[i]} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${fmt(s.mean)} |`);
    });
  }
} else if (args.mode === 'profile' || args.mode === 'slow') {
  // profile / slow: per query time and what went on inside, on one set.
  const engines = await enginesOf(args.engines);
  const qs = allSets[args.set];
  const text = engines.text as unknown as Record<string, (...a: unknown[]) => unknown>;
  let holdingMs = 0;
  let holdingIn = 0;
  let holdingOut = 0;
  let wordsMs = 0;
  let rarestMs = 0;
  const wrap = (name: string, add: (ms: number, args: unknown[], out: unknown) => void) => {
    const fn = text[name].bind(text);
    text[name] = (...a: unknown[]) => {
      const t0 = performance.now();
      const out = fn(...a);
      add(performance.now() - t0, a, out);
      return out;
    };
  };
  const captured: unknown[] = [];
  wrap('tracksHoldingWords', (ms, a, out) => {
    if (process.env.CAPTURE) captured.push(a);
    holdingMs += ms;
    holdingIn += (a[0] as unknown[]).length;
    holdingOut += (out as unknown[]).length;
  });
  wrap('tracks', (ms) => (wordsMs += ms));
  wrap('rarestLyricsWord', (ms) => (rarestMs += ms));
  for (const q of qs.slice(0, 200)) engines.fingerprint.search(q.text, args.size, Infinity);
  const rows = qs.map((q) => {
    lyricsCalls = lyricsMs = holdingMs = holdingIn = holdingOut = wordsMs = rarestMs = 0;
    const t0 = performance.now();
    const hits = engines.fingerprint.search(q.text, args.size, Infinity);
    const ms = performance.now() - t0;
    return { ms, id: q.id, text: q.text, len: normalizeText(q.text).length, hits: hits.length, top: hits[0]?.covered === normalizeText(q.text).length, lyricsCalls, lyricsMs, holdingMs, holdingIn, holdingOut, wordsMs, rarestMs };
  });
  const s = stats(rows.map((r) => r.ms));
  console.log(`${args.set}: ${rows.length} queries, p50 ${fmt(s.p50)} p99 ${fmt(s.p99)} mean ${fmt(s.mean)} ms`);
  const sorted = [...rows].sort((a, b) => b.ms - a.ms);
  const slow = sorted.slice(0, Math.ceil(rows.length * 0.02));
  const sum = (rs: typeof rows, k: keyof (typeof rows)[number]) => rs.reduce((a, r) => a + Number(r[k]), 0) / rs.length;
  for (const [label, rs] of [['slowest 2%', slow], ['all', rows]] as const) {
    console.log(`${label}: ms ${fmt(sum(rs, 'ms'))}, lyricsOf calls ${fmt(sum(rs, 'lyricsCalls'))} (${fmt(sum(rs, 'lyricsMs'))} ms), ` +
      `holdingWords ${fmt(sum(rs, 'holdingMs'))} ms (${fmt(sum(rs, 'holdingIn'))} in → ${fmt(sum(rs, 'holdingOut'))}), word candidates ${fmt(sum(rs, 'wordsMs'))} ms, rarest ${fmt(sum(rs, 'rarestMs'))} ms`);
  }
  if (process.env.CAPTURE) fs.writeFileSync(process.env.CAPTURE, JSON.stringify(captured));
  if (args.mode === 'slow') {
    // Again over just the slowest, several times (for --cpu-prof).
    for (let k = 0; k < 20; k++) for (const r of slow) engines.fingerprint.search(r.text, args.size, Infinity);
  } else {
    for (const r of slow) console.log(`${fmt(r.ms)} ms len ${r.len} hits ${r.hits} whole ${r.top} lyrics ${r.lyricsCalls}/${fmt(r.lyricsMs)}ms holding ${fmt(r.holdingMs)}ms ${r.holdingIn}→${r.holdingOut} words ${fmt(r.wordsMs)} rarest ${fmt(r.rarestMs)} source ${r.id} ${JSON.stringify(r.text)}`);
  }
}
if (args.mode === 'cand') {
  // Only the candidate stage (the vote), total CPU ms per set, engines interleaved.
  const dists = args.engines.split(',');
  const all = await Promise.all(dists.map(async (dist) => {
    const { selectKernel } = (await import(pathToFileURL(path.join(path.resolve(dist), 'src/index/kernel/kernel.js')).href)) as typeof KernelModule;
    const chosen = selectKernel(args.kernel as EngineName);
    if (!chosen.kernel) throw new Error(`--kernel ${args.kernel}: ${chosen.why}`);
    return chosen.kernel.candidateStage(index);
  }));
  const normal = Object.fromEntries(Object.entries(sets).map(([k, qs]) => [k, qs.map((q) => normalizeText(q.text))]));
  const totals: Record<string, number[][]> = {};
  for (let round = 0; round < args.rounds; round++) {
    for (const [name, qs] of Object.entries(normal)) {
      all.forEach((e, i) => {
        const c0 = process.cpuUsage();
        for (const q of qs) e.candidates(q, 20);
        const c = process.cpuUsage(c0);
        ((totals[name] ??= dists.map(() => []))[i]).push((c.user + c.system) / 1000);
      });
    }
  }
  for (const [name, t] of Object.entries(totals)) console.log(name, t.map((v, i) => `${dists[i]}: min ${Math.min(...v).toFixed(0)} (${v.map((x) => x.toFixed(0)).join(' ')}) CPU ms`).join(' | '));
}
await catalog.close();
