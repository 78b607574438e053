/**
 * The `refrain` subcommands other than `serve`: import, generate and keys. Each takes its parsed
 * config from the one option table of src/config.ts.
 */
import { lowerPriority } from '../util/priority.js';
import type { CommandConfig } from '../config.js';
import { Catalog } from '../catalog/store.js';
import { importFiles, type ImportOptions, type ImportReport } from '../catalog/import.js';
import type { GenerateStats } from '../generate/index.js';
import { writeCatalog } from '../generate/write.js';
import { KeyStore, type KeyRecord } from '../auth/keys.js';
import { progressBar } from './progress.js';
import { buildIndex, type BuildReport } from '../index/service/build.js';
import { emit, warnWithoutNative } from './output.js';
import { RefrainError } from '../errors.js';

export async function runImport(config: CommandConfig<'import'>, files: string[]): Promise<number> {
  if (files.length === 0) throw new RefrainError('usage', 'name at least one file to import');
  lowerPriority(config.nice);
  warnWithoutNative();
  const progress = config.progress ?? (!config.json && Boolean(process.stderr.isTTY));
  const catalog = Catalog.open(config.data);
  let report: ImportReport;
  try {
    report = await importWithProgress(catalog, files, { strict: config.strict, batch: config.batch, readers: config.readThreads || undefined }, progress);
  } finally {
    await catalog.close();
  }
  const index = config.noIndex ? undefined : await indexWithProgress(config.data, false, progress);
  emit(config.json, { ...report, index }, () => importSummary(report) + (index ? `\n${indexSummary(index)}` : ''));
  // The good lines are imported, but a script must notice the rejected ones (docs/operations.md).
  return report.rejected > 0 ? IMPORT_REJECTED_EXIT : 0;
}

/** Exit code of an import that applied its good lines and rejected others. */
export const IMPORT_REJECTED_EXIT = 3;

/** `refrain index`: build a new index generation unless the current one covers the catalog. */
export async function runIndex(config: CommandConfig<'index'>): Promise<number> {
  lowerPriority(config.nice);
  const report = await indexWithProgress(config.data, config.force, config.progress ?? (!config.json && Boolean(process.stderr.isTTY)));
  emit(config.json, report, () => indexSummary(report));
  return 0;
}

/** Import with a progress bar that ends at 100% with the number of tracks imported. */
export async function importWithProgress(catalog: Catalog, files: string[], options: ImportOptions, progress: boolean): Promise<ImportReport> {
  const bar = progressBar('importing', progress);
  try {
    let tracks = 0;
    const report = await importFiles(catalog, files, { ...options, onProgress: (read, total, n) => bar.update((tracks = n), total ? read / total : 0) });
    bar.finish(tracks);
    return report;
  } finally {
    bar.stop();
  }
}

/** Generate a catalog (into `out`, or stdout) with a progress bar that ends at 100% with the number of tracks. */
export async function generateWithProgress(options: { tracks: number; seed: number }, out: string | undefined, progress: boolean): Promise<GenerateStats> {
  const bar = progressBar('generating', progress);
  try {
    const stats = await writeCatalog(options, out, (n) => bar.update(n, n / options.tracks, options.tracks));
    bar.finish(stats.tracks);
    return stats;
  } finally {
    bar.stop();
  }
}

/** Build the index with a progress bar that ends at 100% with the number of tracks indexed. */
export async function indexWithProgress(dataDir: string, force: boolean, progress: boolean): Promise<BuildReport> {
  const bar = progressBar('indexing', progress);
  try {
    const report = await buildIndex(dataDir, { force, onProgress: (n, total) => bar.update(n, total ? n / total : 0, total) });
    if (report.built) bar.finish(report.tracks);
    return report;
  } finally {
    bar.stop();
  }
}

function indexSummary(r: BuildReport): string {
  if (!r.built) return `index generation ${r.generation} already covers the catalog (use --force to rebuild)`;
  return `index generation ${r.generation}: ${r.tracks.toLocaleString('en')} tracks, ${r.lyrics.toLocaleString('en')} lyrics, ` +
    `${(r.bytes / 2 ** 20).toFixed(1)} MiB in ${r.seconds.toFixed(1)} s`;
}

export function importSummary(r: ImportReport): string {
  const lines = [
    `${r.lines.toLocaleString('en')} lines in ${r.seconds.toFixed(1)} s (${r.tracksPerSecond.toLocaleString('en')} tracks/s): ` +
      `${r.imported} imported, ${r.updated} updated, ${r.unchanged} unchanged, ${r.deleted} deleted, ` +
      `${r.absent} deletes of absent records, ${r.rejected} rejected`,
  ];
  for (const x of r.rejections.slice(0, 50)) lines.push(`  rejected ${x.file}:${x.line}: ${x.reason}`);
  if (r.rejected > 50) lines.push(`  … and ${r.rejected - 50} more (use --json for the first 1000)`);
  return lines.join('\n');
}

export async function runGenerate(config: CommandConfig<'generate'>): Promise<number> {
  const started = performance.now();
  const stats = await generateWithProgress(config, config.out, config.progress ?? (Boolean(config.out) && Boolean(process.stderr.isTTY)));
  if (config.out) {
    const seconds = (performance.now() - started) / 1000;
    emit(config.json, { file: config.out, seed: config.seed, seconds, ...stats }, () =>
      `wrote ${stats.tracks} tracks, ${stats.albums} albums, ${stats.artists} artists to ${config.out} in ${seconds.toFixed(1)} s`,
    );
  }
  return 0;
}

const describeKey = (r: KeyRecord): string =>
  `${r.key_id}  ${r.plan.padEnd(10)} quota ${r.quota || 'unlimited'}/day  rate ${r.rate || 'unlimited'}/min` +
  `${r.country ? `  country ${r.country}` : ''}${r.revoked ? `  REVOKED ${r.revoked}` : ''}${r.label ? `  "${r.label}"` : ''}`;

export async function runKeys(action: string, config: CommandConfig<'keys list'> & Partial<CommandConfig<'keys create'>>, args: string[]): Promise<number> {
  const catalog = Catalog.open(config.data);
  try {
    const keys = new KeyStore(catalog.root);
    if (action === 'create') {
      const { key, record } = keys.create({
        plan: config.plan ?? 'free', quota: config.quota, rate: config.rate, country: config.country, label: config.label,
      });
      emit(config.json, { key, ...record }, () => `${key}\n${describeKey(record)}\n(the key is shown only now: store it)`);
    } else if (action === 'list') {
      const list = keys.list();
      emit(config.json, { keys: list }, () => (list.length ? list.map(describeKey).join('\n') : 'no keys'));
    } else {
      if (args.length !== 1) throw new RefrainError('usage', 'name the key_id to revoke (see `refrain keys list`)');
      const record = keys.revoke(args[0]);
      emit(config.json, record, () => `revoked ${describeKey(record)}`);
    }
    return 0;
  } finally {
    await catalog.close();
  }
}
