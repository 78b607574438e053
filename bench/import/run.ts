/**
 * bench/import: how fast `refrain generate` writes and `refrain import` loads a large catalog, and
 * how big the data directory gets.
 *
 *   npm run bench:import -- [--tracks 1000000] [--seed 7] [--reimport]
 *
 * The generated file is plain JSONL (gzip would time the compressor, not Refrain) and is kept in
 * bench/.data/ for bench/http to reuse; the catalog is imported into a fresh data directory there.
 * `--reimport` also times importing the same file again (every line unchanged).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { writeCatalog } from '../../src/generate/write.js';
import { benchArgs } from '../lib/args.js';
import { machine } from '../lib/measure.js';
import { DATA_DIR, RESULTS_DIR, writeResult } from '../lib/paths.js';

const args = benchArgs({ tracks: 1000000, seed: 7, reimport: false, 'skip-generate': false });
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
const report = await importFiles(catalog, [file], { batch: 5000 });
let reimport: { seconds: number; tracksPerSecond: number } | undefined;
if (args.reimport) {
  const again = await importFiles(catalog, [file], { batch: 5000 });
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
  `peak RSS of the whole run: ${result.peakRssMiB} MiB (it counts LMDB's memory-mapped pages, which the kernel can drop; the JS heap stays small)`,
].join('\n');
console.log(table);
writeResult('import', table, result);
