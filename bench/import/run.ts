/**
 * bench/import: how fast `refrain generate` writes and `refrain import` loads a large catalog, and
 * how big the data directory gets.
 *
 *   npm run bench:import -- [--tracks 1000000] [--seed 7] [--reimport] [--skip-generate] [--readers N]
 *
 * The generated file is plain JSONL (gzip would time the compressor, not Refrain) and is kept in
 * bench/.data/ for bench/http to reuse; the catalog is imported into a fresh data directory there.
 * `--reimport` also times importing the same file again (every line unchanged). The import runs as
 * `refrain import` runs it (its default batch; `--readers`: reading threads, default as the CLI's),
 * and its CPU is reported per track line by thread.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles, readingThreads } from '../../src/catalog/import.js';
import { writeCatalog } from '../../src/generate/write.js';
import { benchArgs } from '../lib/args.js';
import { machine, sampleThreadCpu } from '../lib/measure.js';
import { DATA_DIR, RESULTS_DIR, writeResult } from '../lib/paths.js';

const args = benchArgs({ tracks: 1000000, seed: 7, reimport: false, 'skip-generate': false, readers: 0 });
const { tracks, seed } = args;
const file = path.join(DATA_DIR, `generated-${tracks}.jsonl`);
const data = path.join(DATA_DIR, `catalog-${tracks}`);
mkdirSync(DATA_DIR, { recursive: true });

// --skip-generate reuses the file of an earlier run (and its generation time) to time the import alone.
const previousFile = path.join(RESULTS_DIR, 'import.json');
const previous = existsSync(previousFile)
  ? (JSON.parse(readFileSync(previousFile, 'utf8')) as { tracks: number; generate: { seconds: number } })
  : undefined;
let generateSeconds: number;
if (args['skip-generate'] && existsSync(file) && previous?.tracks === tracks) {
  generateSeconds = previous.generate.seconds;
} else {
  const t0 = performance.now();
  await writeCatalog({ tracks, seed }, file);
  generateSeconds = (performance.now() - t0) / 1000;
}
const fileBytes = statSync(file).size;
console.error(`generated ${tracks} tracks in ${generateSeconds.toFixed(1)} s (${(fileBytes / 2 ** 30).toFixed(2)} GiB)`);

if (existsSync(data)) rmSync(data, { recursive: true });
const catalog = Catalog.open(data);
// As `refrain import` does: its default batch and reading threads.
const readers = args.readers || readingThreads();
const sampler = sampleThreadCpu(process.pid);
const report = await importFiles(catalog, [file], { readers });
const cpu = sampler.stop();
let reimport: { seconds: number; tracksPerSecond: number } | undefined;
if (args.reimport) {
  const again = await importFiles(catalog, [file], { readers });
  reimport = { seconds: again.seconds, tracksPerSecond: again.tracksPerSecond };
}
await catalog.close();
const duBytes = Number(spawnSync('du', ['-sb', data], { encoding: 'utf8' }).stdout.split('\t')[0]);
const rssMiB = process.resourceUsage().maxRSS / 1024;

const result = {
  at: new Date().toISOString(),
  machine: machine(),
  tracks,
  generate: { seconds: generateSeconds, tracksPerSecond: Math.round(tracks / generateSeconds), fileBytes },
  import: { seconds: report.seconds, tracksPerSecond: report.tracksPerSecond, lines: report.lines, rejected: report.rejected },
  reimport,
  dataDirBytes: duBytes,
  bytesPerTrack: Math.round(duBytes / tracks),
  peakRssMiB: Math.round(rssMiB),
  // CPU µs per track of the import (all its lines' work over the track count), by thread: the writer (main), the reading threads together, the rest (V8's GC and compiler, libuv).
  cpuPerTrack: perTrack(cpu, tracks),
  readers,
};
const table = [
  `bench/import — ${result.at.slice(0, 16)}Z — ${result.machine}; catalog of ${tracks.toLocaleString('en')} generated tracks (seed ${seed})`,
  '',
  '| step | time | rate | size |',
  '|---|---:|---:|---:|',
  `| generate (plain JSONL) | ${generateSeconds.toFixed(0)} s | ${result.generate.tracksPerSecond.toLocaleString('en')} tracks/s | ${(fileBytes / 2 ** 30).toFixed(2)} GiB |`,
  `| import into an empty data dir | ${report.seconds.toFixed(0)} s | ${report.tracksPerSecond.toLocaleString('en')} tracks/s | ${(duBytes / 2 ** 30).toFixed(2)} GiB data dir (${result.bytesPerTrack.toLocaleString('en')} B/track) |`,
  ...(reimport ? [`| re-import (all unchanged) | ${reimport.seconds.toFixed(0)} s | ${reimport.tracksPerSecond.toLocaleString('en')} tracks/s | |`] : []),
  '',
  `CPU per track of the import (from /proc/<pid>/task, each thread's user + system time): ${result.cpuPerTrack.all} µs in all = ` +
    `writing thread ${result.cpuPerTrack.writer} + ${readers} reading thread${readers === 1 ? '' : 's'} ${result.cpuPerTrack.readers} + ` +
    `other threads (V8's garbage collector and compiler, libuv) ${result.cpuPerTrack.others}; on two cores the import's time per track ` +
    `is at least half the sum (${Math.round(result.cpuPerTrack.all / 2)} µs), with more cores at least the writing thread's.`,
  '',
  `peak RSS of the whole run: ${result.peakRssMiB} MiB (it counts LMDB's memory-mapped pages, which the kernel can drop; the JS heap stays small)`,
].join('\n');
console.log(table);
writeResult('import', table, result);

function perTrack(cpu: Record<string, number>, n: number): { all: number; writer: number; readers: number; others: number } {
  const us = (seconds: number) => Math.round((seconds / n) * 1e6);
  const writer = cpu.main ?? 0;
  const readers = cpu['refrain-parse'] ?? 0;
  const all = Object.values(cpu).reduce((a, b) => a + b, 0);
  return { all: us(all), writer: us(writer), readers: us(readers), others: us(all - writer - readers) };
}
