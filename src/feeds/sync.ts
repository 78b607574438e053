/**
 * `refrain sync`: make a data directory a replica of a primary from its feeds. Each pass lists the
 * primary's feeds and applies, one at a time, the latest full feed (when the replica has not applied
 * that one) and then every incremental feed after it that it has not applied — each downloaded,
 * checked whole (fetch.ts) and only then imported with the ordinary importer.
 *
 * Where the replica stands is kept in its `meta` database (`sync:state`: the primary, the full feed
 * it is based on, the incremental feeds applied since) and written after each feed. An interrupted
 * pass resumes at the first feed not recorded: a feed cut off in the download was never applied; a
 * feed interrupted while importing is imported again, which is harmless because every line is a
 * record's whole state (an unchanged line is a no-op) and a delete of a missing record does nothing.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Catalog } from '../catalog/store.js';
import { importFiles } from '../catalog/import.js';
import { RefrainError } from '../errors.js';
import { checkFeed, downloadFeed, listFeeds, type Primary } from './fetch.js';
import type { FeedEntry } from './listing.js';
import { removeAbsent } from './replace.js';
import { holderOf, tryLock } from '../util/lock-file.js';

export interface SyncState {
  /** Base URL of the primary. */
  source: string;
  /** The full feed the replica's catalog is built on. */
  full?: { id: number; created: string };
  /** Incremental feeds applied after it, in order. */
  applied: number[];
}

/** One applied feed. */
export interface AppliedFeed {
  id: number;
  full: boolean;
  created: string;
  bytes: number;
  lines: number;
  imported: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** Records a full feed no longer held, deleted from the replica. */
  removed: number;
  seconds: number;
}

export interface SyncReport {
  source: string;
  applied: AppliedFeed[];
  /** The full feed and the last feed the replica now stands on (undefined: the primary has none). */
  full?: number;
  last?: number;
}

export interface SyncOptions {
  batch?: number;
  /** Reading threads of each feed's import (import.ts). */
  readers?: number;
  signal?: AbortSignal;
  onFeed?: (feed: AppliedFeed) => void;
}

const STATE_KEY = 'sync:state';

export function readState(catalog: Catalog, source: string): SyncState {
  const state = catalog.meta.get(STATE_KEY) as SyncState | undefined;
  // Another primary (or none yet): start from its full feed.
  return state && state.source === source ? state : { source, applied: [] };
}

/** The next feed to apply, or undefined when the replica is up to date (pure). */
export function nextFeed(listing: readonly FeedEntry[], state: SyncState): FeedEntry | undefined {
  const [full, ...later] = listing;
  if (!full) return undefined;
  if (!full.full) throw new RefrainError('unavailable', `the primary's feed listing starts with incremental feed ${full.id}, not a full one`);
  // Compared with `created` too: a primary rebuilt from scratch numbers its feeds from 1 again.
  if (state.full?.id !== full.id || state.full.created !== full.created) return full;
  return later.find((f) => !f.full && !state.applied.includes(f.id));
}

/** Apply every feed the replica lacks; see the module comment. */
export async function syncOnce(dataDir: string, primary: Primary, options: SyncOptions = {}): Promise<SyncReport> {
  const dir = path.join(dataDir, 'sync');
  const lockFile = path.join(dir, 'sync.lock');
  const release = tryLock(lockFile);
  if (!release) throw new RefrainError('unavailable', `another refrain sync (pid ${holderOf(lockFile)}) is running on ${dataDir}`);
  try {
    return await syncLocked(dataDir, dir, primary, options);
  } finally {
    release();
  }
}

async function syncLocked(dataDir: string, dir: string, primary: Primary, options: SyncOptions): Promise<SyncReport> {
  for (const name of readdirSync(dir)) if (name.endsWith('.download')) rmSync(path.join(dir, name), { force: true });
  const catalog = Catalog.open(dataDir);
  const applied: AppliedFeed[] = [];
  try {
    for (;;) {
      // Listed again before each feed: URLs expire, and a new full feed may have appeared meanwhile.
      const listing = await listFeeds(primary, options.signal);
      let state = readState(catalog, primary.base);
      const next = nextFeed(listing, state);
      if (!next) return { source: primary.base, applied, full: state.full?.id, last: state.applied.at(-1) ?? state.full?.id };
      const result = await applyFeed(catalog, dir, next, options);
      state = next.full ? { source: primary.base, full: { id: next.id, created: next.created }, applied: [] } : { ...state, applied: [...state.applied, next.id] };
      await catalog.meta.put(STATE_KEY, state);
      applied.push(result);
      options.onFeed?.(result);
    }
  } finally {
    await catalog.close();
  }
}

async function applyFeed(catalog: Catalog, dir: string, entry: FeedEntry, options: SyncOptions): Promise<AppliedFeed> {
  const started = performance.now();
  const { file, bytes } = await downloadFeed(entry, dir, options.signal);
  try {
    const contents = await checkFeed(file, entry);
    options.signal?.throwIfAborted();
    const report = await importFiles(catalog, [file], { batch: options.batch, readers: options.readers });
    if (report.rejected) {
      const first = report.rejections[0];
      throw new RefrainError('internal', `feed ${entry.id}: ${report.rejected} lines rejected (line ${first.line}: ${first.reason}); is the primary another version of Refrain?`);
    }
    const removed = contents.ids ? removeAbsent(catalog, contents.ids) : 0;
    return {
      id: entry.id, full: entry.full, created: entry.created, bytes, lines: contents.lines,
      imported: report.imported, updated: report.updated, unchanged: report.unchanged, deleted: report.deleted, removed,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    rmSync(file, { force: true });
  }
}
