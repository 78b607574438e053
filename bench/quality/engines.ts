/**
 * bench/quality/engines.ts: the quality bench's catalog and query set through both fingerprint
 * kernels (issue 17: the native one must give the TypeScript reference's answers, so recall in every
 * bucket is unchanged).
 *
 *   npm run build --silent && node dist/bench/quality/engines.js [--tracks 50000] [--per-bucket 200] [--seed 1]
 *
 * The catalog and the queries are bench/quality's (catalog.ts builds the catalog once, queries.ts the
 * set). Each query is answered in this process by a pool worker's engines (engines.ts makeEngines)
 * with `--engine ts` and with `native`, every lyric read afresh, and the two answers compared whole:
 * tracks, order, similarities, characters covered, longest passage. Per bucket: identical answers,
 * the text's source ranked first by each kernel (unrelated texts: answers at similarity ≥ 50, which a
 * screener would act on), and each kernel's CPU per query. Writes bench/results/quality-engines-<N>.md
 * and .json; exits 1 when any answer differs.
 */
import { benchArgs } from '../lib/args.js';
import { machine } from '../lib/measure.js';
import { writeResult } from '../lib/paths.js';
import { benchPaths, ensureCatalog } from './catalog.js';
import { BUCKETS, loadOrBuildQueries, type Bucket, type Query } from './queries.js';
import { Catalog } from '../../src/catalog/store.js';
import { currentGeneration, loadGenerationAsync } from '../../src/index/store/layout.js';
import { makeEngines } from '../../src/index/service/engines.js';
import { selectKernel, tsKernel, type Kernel } from '../../src/index/kernel/kernel.js';
import type { FingerprintHit } from '../../src/index/fingerprint/search.js';

const args = benchArgs({ tracks: 50000, 'per-bucket': 200, seed: 1 });
const native = selectKernel('native');
if (!native.kernel) throw new Error(`bench/quality/engines compares the kernels: the ${native.why}; run npm run build:native`);

const info = await ensureCatalog(args.tracks, { reindex: false });
const paths = benchPaths(args.tracks);
const set = loadOrBuildQueries(paths, { seed: args.seed, perBucket: args['per-bucket'], tracks: args.tracks, catalogCreatedAt: info.createdAt });
const catalog = Catalog.open(paths.refrainData);
const index = await loadGenerationAsync(currentGeneration(paths.refrainData)!);
const lyricsOf = (id: number) => {
  const body = catalog.getContent('lyrics', id)?.lyrics_body;
  return body === undefined ? undefined : tsKernel.normalizeText(body);
};
const searcherOf = (kernel: Kernel) => makeEngines(index, catalog, { lyricsOf }, kernel).fingerprint;
const engines = { ts: searcherOf(tsKernel), native: searcherOf(native.kernel) };

interface BucketRow {
  queries: number;
  identical: number;
  /** Source ranked first (lyric buckets) or flagged at similarity ≥ 50 (unrelated), per kernel. */
  hits: { ts: number; native: number };
  cpuUs: { ts: number; native: number };
}
const rows = new Map<Bucket, BucketRow>(BUCKETS.map((b) => [b, { queries: 0, identical: 0, hits: { ts: 0, native: 0 }, cpuUs: { ts: 0, native: 0 } }]));
const good = (q: Query, answers: FingerprintHit[]): boolean =>
  q.bucket === 'unrelated' ? answers.some((h) => h.similarity >= 50) : answers.length > 0 && answers[0].tracks.some((t) => q.relevant.includes(t));
/** One query through one kernel: its answers and the CPU they took. */
function answer(name: 'ts' | 'native', q: Query): { answers: FingerprintHit[]; cpuUs: number } {
  const before = process.cpuUsage();
  const answers = engines[name].search(q.text, 10, Infinity);
  const used = process.cpuUsage(before);
  return { answers, cpuUs: used.user + used.system };
}
// Warm both (JIT, page cache) on the first queries, then compare every one, the kernels in turn.
for (const q of set.queries.slice(0, 100)) for (const name of ['ts', 'native'] as const) answer(name, q);
let differing = 0;
const examples: string[] = [];
for (const q of set.queries) {
  const row = rows.get(q.bucket)!;
  const a = answer('ts', q);
  const b = answer('native', q);
  row.queries++;
  row.cpuUs.ts += a.cpuUs;
  row.cpuUs.native += b.cpuUs;
  if (good(q, a.answers)) row.hits.ts++;
  if (good(q, b.answers)) row.hits.native++;
  if (JSON.stringify(a.answers) === JSON.stringify(b.answers)) row.identical++;
  else if (++differing <= 5) examples.push(`query ${q.id} (${q.bucket}): ts ${JSON.stringify(a.answers.slice(0, 2))} / native ${JSON.stringify(b.answers.slice(0, 2))}`);
}
await catalog.close();

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);
const total = [...rows.values()].reduce((n, r) => n + r.queries, 0);
const cpu = (name: 'ts' | 'native') => [...rows.values()].reduce((n, r) => n + r.cpuUs[name], 0) / total;
const summary = [
  `bench/quality/engines — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}`,
  `catalog ${info.tracks.toLocaleString('en')} tracks (${info.corpusTracks.toLocaleString('en')} from the real-text corpora, the rest generated); ` +
    `query set seed ${set.seed}, ${set.perBucket} per bucket; both kernels in this process, every lyric read afresh`,
  '',
  '| bucket | queries | identical answers | ts: source first (unrelated: flagged) | native: the same | ts CPU µs/query | native CPU µs/query | native ÷ ts |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...[...rows.entries()].filter(([, r]) => r.queries > 0).map(([bucket, r]) =>
    `| ${bucket} | ${r.queries} | ${pct(r.identical, r.queries)} | ${pct(r.hits.ts, r.queries)} | ${pct(r.hits.native, r.queries)} | ` +
      `${(r.cpuUs.ts / r.queries).toFixed(0)} | ${(r.cpuUs.native / r.queries).toFixed(0)} | ${(r.cpuUs.native / r.cpuUs.ts).toFixed(2)} |`),
  `| all | ${total} | ${pct(total - differing, total)} | | | ${cpu('ts').toFixed(0)} | ${cpu('native').toFixed(0)} | ${(cpu('native') / cpu('ts')).toFixed(2)} |`,
  '',
  differing === 0 ? 'Every answer identical: recall is the same in every bucket.' : `${differing} answers differ; the first:\n\n${examples.map((e) => `- ${e}`).join('\n')}`,
].join('\n');
console.log(summary);
writeResult(`quality-engines-${args.tracks}`, summary, { at: new Date().toISOString(), machine: machine(), tracks: args.tracks, seed: set.seed, perBucket: set.perBucket, rows: Object.fromEntries(rows), differing });
if (differing > 0) process.exitCode = 1;
