/**
 * `refrain feeds build|list|prune` (a primary's feeds, docs/operations.md) and `refrain sync`
 * (a replica made from a primary's feeds).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandConfig } from '../config.js';
import { Catalog } from '../catalog/store.js';
import { buildFeed } from '../feeds/build.js';
import { lock } from '../util/lock-file.js';
import { lowerPriority } from '../util/priority.js';
import { pruneFeeds } from '../feeds/prune.js';
import { buildLockFile, FeedStore, type FeedMeta } from '../feeds/store.js';
import { syncOnce, type AppliedFeed, type SyncReport } from '../feeds/sync.js';
import { buildIndex } from '../index/service/build.js';
import { RefrainError } from '../errors.js';
import { emit, warnWithoutNative } from './output.js';

const size = (bytes: number): string => (bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);

const describeFeed = (f: FeedMeta): string =>
  `${String(f.id).padStart(6)}  ${f.created}  ${f.full ? 'full       ' : 'incremental'}  seq ${f.fromSeq}–${f.toSeq}  ` +
  `${f.records.toLocaleString('en')} records  ${size(f.bytes)}  sha256 ${f.sha256}  ${f.file}`;

type FeedsConfig = CommandConfig<'feeds list'> & Partial<CommandConfig<'feeds build'>>;

export async function runFeeds(action: string, config: FeedsConfig): Promise<number> {
  if (action === 'build' && config.full === config.incremental) throw new RefrainError('usage', 'say which feed to build: --full or --incremental');
  const catalog = Catalog.open(config.data);
  const store = new FeedStore(catalog.root);
  try {
    if (action === 'list') {
      const feeds = store.all();
      emit(config.json, { feeds }, () => (feeds.length ? feeds.map(describeFeed).join('\n') : 'no feeds yet (refrain feeds build --full)'));
      return 0;
    }
    const release = await lock(buildLockFile(config.data), (pid) => {
      if (!config.json) process.stderr.write(`waiting for another feed build (pid ${pid}) to finish…\n`);
    });
    try {
      const now = Date.now();
      const started = performance.now();
      const feed = action === 'build' ? await buildFeed(config.data, catalog, { kind: config.full ? 'full' : 'incremental', now }) : undefined;
      const seconds = (performance.now() - started) / 1000;
      const pruned = await pruneFeeds(config.data, store, now, config.feedsRetention ?? 0);
      emit(config.json, { feed, seconds, pruned }, () =>
        [
          ...(action === 'build' ? [feed ? `built in ${seconds.toFixed(1)} s: ${describeFeed(feed)}` : 'nothing changed since the latest feed: no incremental feed built'] : []),
          pruned.length ? `pruned ${pruned.length} feed(s) past retention: ${pruned.map((f) => f.id).join(', ')}` : 'nothing to prune',
        ].join('\n'),
      );
      return 0;
    } finally {
      release();
    }
  } finally {
    await catalog.close();
  }
}

const describeApplied = (f: AppliedFeed): string =>
  `applied ${f.full ? 'full' : 'incremental'} feed ${f.id} (${f.created}, ${size(f.bytes)}, ${f.lines.toLocaleString('en')} lines) in ${f.seconds.toFixed(1)} s: ` +
  `${f.imported} imported, ${f.updated} updated, ${f.unchanged} unchanged, ${f.deleted} deleted${f.full ? `, ${f.removed} no longer on the primary removed` : ''}`;

export async function runSync(config: CommandConfig<'sync'>): Promise<number> {
  if (!config.apikey === !config.bearer) throw new RefrainError('usage', 'give the primary\'s credentials: --apikey KEY or --bearer TOKEN (one of them)');
  const primary = { base: config.from, apikey: config.apikey, bearer: config.bearer };
  lowerPriority(config.nice);
  warnWithoutNative();
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (;;) {
      const code = await syncPass(config, primary, stop.signal);
      if (!config.every || stop.signal.aborted) return code;
      try {
        await sleep(config.every * 1000, undefined, { signal: stop.signal });
      } catch {
        return 0; // stopped while waiting
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** One pass; with --every a failed pass is reported and retried at the next interval. */
async function syncPass(config: CommandConfig<'sync'>, primary: Parameters<typeof syncOnce>[1], signal: AbortSignal): Promise<number> {
  let report: SyncReport;
  try {
    report = await syncOnce(config.data, primary, {
      batch: config.batch,
      readers: config.readThreads || undefined,
      signal,
      onFeed: (f) => {
        if (!config.json) process.stdout.write(`${describeApplied(f)}\n`);
      },
    });
  } catch (e) {
    if (signal.aborted) {
      process.stderr.write('refrain sync: stopped; the next sync resumes where this one stopped\n');
      return 1;
    }
    if (!config.every || !(e instanceof RefrainError)) throw e;
    process.stderr.write(`refrain sync: ${e.hint} (next attempt in ${config.every} s)\n`);
    return 1;
  }
  const index = report.applied.length && !config.noIndex ? await buildIndex(config.data) : undefined;
  emit(config.json, { ...report, at: new Date().toISOString(), index }, () =>
    report.full === undefined
      ? `${primary.base} has no feeds yet`
      : `${report.applied.length ? 'synced' : 'up to date'}: full feed ${report.full}, last feed ${report.last}` +
        (index?.built ? `; index generation ${index.generation} built` : ''),
  );
  return 0;
}
