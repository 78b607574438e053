/**
 * bench/quality: how well the fingerprint endpoint finds lyrics in a screener's text, against
 * PostgreSQL pg_trgm, SQLite FTS5 (BM25) and MiniSearch on the same catalog and the same queries.
 *
 *   npm run build --silent && node dist/bench/quality/run.js [--tracks 100000] [--per-bucket 200]
 *     [--seed 1] [--systems refrain,pg,fts5,minisearch] [--threshold 50] [--longest 80] [--concurrency 4]
 *     [--pg-threshold 0.6] [--pg-timeout-ms 1000] [--pg-connections 2]
 *     [--minisearch-fuzzy 0.2] [--minisearch-fuzzy-per-bucket 50] [--minisearch-heap-mib 16384]
 *     [--minisearch-load-minutes 30]
 *     [--budget-minutes 30] [--reload] [--reindex] [--skip-ambiguity] [--skip-screening] [--merge]
 *
 * Stages: the catalog (bench/.data/quality-<N>/, built once: catalog.ts), the lyrics file the
 * baselines load (lyrics-file.ts), the query set (queries.ts, cached per seed and size), then each
 * system in turn (systems/), scored (metrics.ts) and reported (report.ts) to
 * bench/results/quality-<N>.md and .json. `--reload` rebuilds the pg and FTS5 stores; `--reindex`
 * runs `refrain index --force`; `--skip-ambiguity` leaves out the ambiguity analysis (ambiguity.ts),
 * which needs the FTS5 database even when FTS5 is not among the systems. After Refrain's run it
 * screens every unrelated text the bench has (screening.ts; `--skip-screening` leaves that out).
 * `--merge` keeps, from the
 * previous report of the same catalog and query set, the systems this run did not run (marked with
 * the date of their run): e.g. re-measure Refrain after a change without re-running the baselines.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from '../lib/args.js';
import { machine } from '../lib/measure.js';
import { RESULTS_DIR } from '../lib/paths.js';
import { benchPaths, ensureCatalog } from './catalog.js';
import { runSystem, type SystemRun } from './evaluate.js';
import { exportLyrics } from './lyrics-file.js';
import { score } from './metrics.js';
import { loadOrComputeAmbiguity } from './ambiguity.js';
import { pairWithRefrain } from './paired.js';
import { BUCKETS, loadOrBuildQueries, subsample, type Bucket } from './queries.js';
import { markdown, type Report, type ScoredRun } from './report.js';
import { Fts5System } from './systems/fts5.js';
import { MiniSearchHost, MiniSearchSystem } from './systems/minisearch.js';
import { PgSystem } from './systems/pg.js';
import { RefrainSystem } from './systems/refrain.js';
import { screenUnrelated, type Screening } from './screening.js';
import type { SearchSystem } from './systems/system.js';

const args = benchArgs({
  tracks: 100000,
  'per-bucket': 200,
  seed: 1,
  systems: 'refrain,pg,fts5,minisearch',
  threshold: 50,
  longest: 80,
  concurrency: 4,
  'pg-threshold': 0.6,
  'pg-timeout-ms': 1000,
  'pg-connections': 2,
  'minisearch-fuzzy': 0.2,
  'minisearch-heap-mib': 16384,
  'minisearch-fuzzy-per-bucket': 50,
  'minisearch-load-minutes': 30,
  'budget-minutes': 30,
  reload: false,
  reindex: false,
  'skip-ambiguity': false,
  'skip-screening': false,
  merge: false,
});
const { tracks, 'per-bucket': perBucket, seed, threshold } = args;
const wanted = args.systems.split(',').map((s) => s.trim()).filter(Boolean);
const unknown = wanted.filter((s) => !['refrain', 'pg', 'fts5', 'minisearch'].includes(s));
if (unknown.length) throw new Error(`unknown system(s): ${unknown.join(', ')} (choose from refrain, pg, fts5, minisearch)`);

const loadAverage = os.loadavg()[0];
const stages: Report['stages'] = [];
const timed = async <T>(stage: string, f: () => Promise<T>, note?: (r: T) => string | undefined): Promise<T> => {
  const t0 = performance.now();
  const r = await f();
  stages.push({ stage, seconds: (performance.now() - t0) / 1000, note: note?.(r) });
  return r;
};

// 1. Catalog.
const paths = benchPaths(tracks);
const catalogStarted = performance.now();
const info = await ensureCatalog(tracks, { reindex: args.reindex });
const catalogSeconds = (performance.now() - catalogStarted) / 1000;
const built = info.seconds;
stages.push({ stage: 'catalog: split corpora + held-out', seconds: built.split, note: `built ${info.createdAt.slice(0, 16)}Z` });
stages.push({ stage: 'catalog: distractors', seconds: built.distractors, note: info.distractorSource });
stages.push({ stage: 'catalog: refrain import', seconds: built.import, note: info.indexCommand ? 'builds the index too' : undefined });
if (built.index !== undefined) stages.push({ stage: 'catalog: refrain index', seconds: built.index, note: 'after import: a no-op unless forced (new index code, --reindex)' });
stages.push({ stage: 'catalog: this run (0 when reused)', seconds: catalogSeconds });

// 2. The lyrics the baselines (and the ambiguity look-ups' FTS5 table) load, and the query set.
{
  await timed('lyrics.tsv export from the catalog', () => exportLyrics(paths.refrainData, paths.lyricsTsv), (r) => (r ? `${r.rows.toLocaleString('en')} rows` : 'reused'));
}
const querySet = await timed(
  'query set (build or reuse)',
  async () => loadOrBuildQueries(paths, { seed, perBucket, tracks, catalogCreatedAt: info.createdAt }),
  (s) => `created ${s.createdAt.slice(0, 16)}Z`,
);
const queries = querySet.queries;
// How many lyric queries are ambiguous on this catalog (their excerpt is in other songs too).
// It needs the FTS5 database (built here if the fts5 system has not built it yet).
const ambiguity = args['skip-ambiguity']
  ? undefined
  : await timed('ambiguity (FTS5 phrase look-ups; build or reuse)', () => loadOrComputeAmbiguity(paths, querySet, args.reload));

// 3. Systems, one after another.
const systems: SearchSystem[] = [];
for (const name of wanted) {
  if (name === 'refrain') systems.push(new RefrainSystem(paths, args.concurrency, info.seconds.index));
  if (name === 'pg') {
    systems.push(
      new PgSystem(paths, tracks, info.createdAt, {
        threshold: args['pg-threshold'],
        timeoutMs: args['pg-timeout-ms'],
        concurrency: args['pg-connections'],
        reload: args.reload,
      }),
    );
  }
  if (name === 'fts5') systems.push(new Fts5System(paths, info.createdAt, args.reload));
  if (name === 'minisearch') {
    const heapMiB = args['minisearch-heap-mib'];
    const host = new MiniSearchHost(paths, { heapMiB, loadMinutes: args['minisearch-load-minutes'] });
    systems.push(new MiniSearchSystem('minisearch', 0, host, heapMiB));
    const fuzzy = args['minisearch-fuzzy'];
    if (fuzzy > 0) systems.push(new MiniSearchSystem('minisearch-fuzzy', fuzzy, host, heapMiB, args['minisearch-fuzzy-per-bucket']));
  }
}

// 4. The report, written after every system (a run that dies half-way leaves what it measured),
// with --merge plus the other systems of the previous report on the same catalog and queries.
const jsonFile = path.join(RESULTS_DIR, `quality-${tracks}.json`);
let carried: ScoredRun[] = [];
let screening: Screening | undefined;
if (args.merge && existsSync(jsonFile)) {
  const previous = JSON.parse(readFileSync(jsonFile, 'utf8')) as Report;
  const same =
    previous.catalog.createdAt === info.createdAt && previous.query.seed === seed && previous.query.perBucket === perBucket && previous.query.total === queries.length;
  if (!same) console.error(`--merge: ${jsonFile} is about another catalog or query set; nothing kept from it`);
  else {
    carried = previous.systems.filter((s) => !systems.some((x) => x.name === s.name)).map((s) => ({ ...s, carriedFrom: s.carriedFrom ?? previous.at }));
    if (!wanted.includes('refrain')) screening = previous.screening;
  }
}
const perBucketCounts: Partial<Record<Bucket, number>> = {};
for (const b of BUCKETS) perBucketCounts[b] = queries.filter((q) => q.bucket === b).length;

function writeReport(runs: ScoredRun[], complete: boolean): string {
  const report: Report = {
    at: new Date().toISOString(),
    complete,
    machine: machine(),
    loadAverage: { start: loadAverage, end: os.loadavg()[0] },
    tracks,
    catalog: info,
    query: {
      seed,
      perBucket,
      total: queries.length,
      perBucketCounts,
      unrelated: {
        heldout: queries.filter((q) => q.origin === 'heldout').length,
        prose: queries.filter((q) => q.origin === 'prose').length,
      },
      minWords: querySet.minWords,
      heldOutDroppedShared: querySet.heldOutDroppedShared,
      vocabularySize: querySet.vocabularySize,
      prose: querySet.prose,
    },
    threshold,
    stages,
    systems: [...runs, ...carried],
    screening,
    paired: pairWithRefrain(paths.dir, queries, [...runs, ...carried].filter((s) => s.subsamplePerBucket !== undefined).map((s) => s.name)),
  };
  const md = markdown(report);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, `quality-${tracks}.md`), `${md}\n`);
  writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  return md;
}

const runs: ScoredRun[] = [];
for (const system of systems) {
  const t0 = performance.now();
  const limit = system.perBucketLimit !== undefined && system.perBucketLimit < perBucket ? system.perBucketLimit : undefined;
  const sent = limit === undefined ? queries : subsample(queries, limit);
  const run: SystemRun = await runSystem(system, sent, { seed, budgetMinutes: args['budget-minutes'], subsamplePerBucket: limit });
  stages.push({
    stage: `${system.name}: load + queries`,
    seconds: (performance.now() - t0) / 1000,
    note: run.status === 'ok' ? `queries ${run.querySeconds?.toFixed(1)} s` : run.status,
  });
  const { outcomes, ...rest } = run;
  // The queries answered: all, or the subsample the system ran on (set up front or to fit the budget).
  const answered = run.subsamplePerBucket === undefined ? queries : subsample(queries, run.subsamplePerBucket);
  // Per-query answers stay in the (git-ignored) data directory for digging into misses.
  if (outcomes) writeFileSync(path.join(paths.dir, `outcomes-${system.name}.json`), JSON.stringify(answered.map((q) => ({ id: q.id, ...outcomes[q.id] }))));
  runs.push({
    ...rest,
    scores: outcomes
      ? score(answered, outcomes, {
          threshold: system.name === 'refrain' ? threshold : undefined,
          longest: args.longest,
          sweep: system.name === 'refrain',
          ambiguity,
        })
      : undefined,
  });
  if (system.name === 'refrain' && !args['skip-screening']) {
    const t1 = performance.now();
    // A failure here must not cost the scores already measured: it is noted and the run goes on.
    const screened = await screenWithRefrain().catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
    if (typeof screened !== 'string') screening = screened;
    else console.error(`screening failed: ${screened}`);
    const note = typeof screened === 'string' ? `failed: ${screened}` : `${screened.texts.toLocaleString('en')} texts`;
    stages.push({ stage: 'refrain: screening every unrelated text', seconds: (performance.now() - t1) / 1000, note });
  }
  writeReport(runs, false);
}
console.log(writeReport(runs, true));

/** Refrain, started again, screening the whole unrelated pool (screening.ts). */
async function screenWithRefrain(): Promise<Screening> {
  const refrain = new RefrainSystem(paths, args.concurrency, info.seconds.index);
  try {
    await refrain.load();
    return await screenUnrelated(refrain, paths, { seed, similarity: threshold, longest: args.longest, concurrency: args.concurrency });
  } finally {
    await refrain.close();
  }
}
