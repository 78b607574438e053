/**
 * Where feeds live: the files in `<data>/feeds/` and their metadata in the catalog's LMDB
 * environment (database `feeds`: uint32 feed id → FeedMeta). The metadata is written only after its
 * file was fsynced and renamed into place, so every listed feed has a complete file.
 */
import type { Database, RootDatabase } from 'lmdb';
import path from 'node:path';

/** One built feed. */
export interface FeedMeta {
  /** Increasing from 1; the listing's `id`. */
  id: number;
  /** ISO 8601 UTC, seconds (the listing's `created`). */
  created: string;
  full: boolean;
  /** The feed holds the changes with change-log seq in (fromSeq, toSeq]; a full feed has fromSeq 0. */
  fromSeq: number;
  toSeq: number;
  /** File name inside `<data>/feeds/`. */
  file: string;
  /** Size of the gzip file. */
  bytes: number;
  /** SHA-256 of the gzip file, hex. */
  sha256: string;
  /** Lines (records) in the feed. */
  records: number;
}

const FILE = /^feed-(\d+)-(full|incremental)\.jsonl\.gz$/;

export const feedsDir = (dataDir: string): string => path.join(dataDir, 'feeds');

/** The feed builders' lock file of a data directory (src/util/lock-file.ts). */
export const buildLockFile = (dataDir: string): string => path.join(feedsDir(dataDir), 'build.lock');

export const feedFileName = (id: number, full: boolean): string =>
  `feed-${String(id).padStart(6, '0')}-${full ? 'full' : 'incremental'}.jsonl.gz`;

/** The feed id a file name stands for, or undefined when it is not a feed file's name. */
export function feedIdOf(file: string): number | undefined {
  const m = FILE.exec(file);
  return m ? Number(m[1]) : undefined;
}

export class FeedStore {
  private readonly db: Database<FeedMeta, number>;

  constructor(private readonly root: RootDatabase) {
    this.db = root.openDB<FeedMeta, number>({ name: 'feeds', keyEncoding: 'uint32' });
  }

  /** See feeds another thread or process added since this thread's last read. */
  refresh(): void {
    this.root.resetReadTxn();
  }

  /** Every feed, oldest first. */
  all(): FeedMeta[] {
    return [...this.db.getRange()].map(({ value }) => value);
  }

  get(id: number): FeedMeta | undefined {
    return this.db.get(id);
  }

  /** The feed stored under a file name, if it is still listed. */
  byFile(file: string): FeedMeta | undefined {
    const id = feedIdOf(file);
    const meta = id === undefined ? undefined : this.db.get(id);
    return meta?.file === file ? meta : undefined;
  }

  /** The newest feed of any kind. */
  latest(): FeedMeta | undefined {
    for (const { value } of this.db.getRange({ reverse: true, limit: 1 })) return value;
    return undefined;
  }

  /**
   * What tracks.dump.get lists: the latest full feed and every feed built after it, oldest first
   * (spec, "GET /ws/1.1/tracks.dump.get"). Empty before the first full feed.
   */
  current(): FeedMeta[] {
    const after: FeedMeta[] = [];
    for (const { value } of this.db.getRange({ reverse: true })) {
      after.push(value);
      if (value.full) return after.reverse();
    }
    return [];
  }

  nextId(): number {
    return (this.latest()?.id ?? 0) + 1;
  }

  async add(meta: FeedMeta): Promise<void> {
    await this.db.put(meta.id, meta);
  }

  async remove(id: number): Promise<void> {
    await this.db.remove(id);
  }
}
