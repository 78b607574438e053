/**
 * Building one feed: its lines (content.ts) gzip-compressed into a temporary file while its SHA-256
 * and size are computed, then fsynced, renamed into place (the directory fsynced too) and only then
 * recorded in the feeds database. A crash leaves at most a temporary file (removed by the next build)
 * or an unrecorded file (removed by pruning).
 *
 * The caller holds the feed lock (lock.ts). `serve` runs this in a worker thread (worker.ts), so a
 * full feed of a large catalog — minutes — never holds up a request; `refrain feeds build` runs it
 * in its own process.
 */
import { createWriteStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Catalog } from '../catalog/store.js';
import { RefrainError } from '../errors.js';
import { measuringStream } from '../util/measuring-stream.js';
import { isoSeconds } from '../util/date.js';
import { fullFeedLines, incrementalFeedLines, type LineCounter } from './content.js';
import { feedFileName, feedsDir, FeedStore, type FeedMeta } from './store.js';

export type FeedKind = 'full' | 'incremental';

export interface BuildRequest {
  kind: FeedKind;
  /** Milliseconds since the epoch: the feed's `created`. */
  now: number;
}

export interface BuildControl {
  /** Stops the build (the temporary file is removed) when the server closes. */
  signal?: AbortSignal;
  /** Where the file goes (bench/feeds writes beside the catalog it measures); default `<data>/feeds/`. */
  dir?: string;
  /** gzip level (bench/feeds compares levels); default GZIP_LEVEL. */
  gzipLevel?: number;
}

/** Lines are joined into chunks of this many characters before compression. */
const CHUNK_CHARS = 1 << 18;
/**
 * gzip level: a 1M-track catalog is ~8 GiB of JSON, so the level decides much of a full feed's time.
 * bench/feeds at 20,000 tracks: level 4 took 2.9 s for 1,483 B/track; 6 (zlib's default) 3.8 s for
 * 6% less; 1 2.5 s for 20% more; 9 6.6 s for 9% less.
 */
export const GZIP_LEVEL = 4;

/** Build a feed and record it: writeFeed, then its metadata. */
export async function buildFeed(dataDir: string, catalog: Catalog, request: BuildRequest, control: BuildControl = {}): Promise<FeedMeta | undefined> {
  const meta = await writeFeed(dataDir, catalog, request, control);
  if (meta) await new FeedStore(catalog.root).add(meta);
  return meta;
}

/**
 * Write the file of a feed of `kind` from the catalog's current state and return its metadata, not
 * yet recorded. An incremental feed covers the change log since the latest feed of either kind;
 * with no change since, nothing is written (undefined).
 */
export async function writeFeed(dataDir: string, catalog: Catalog, request: BuildRequest, control: BuildControl = {}): Promise<FeedMeta | undefined> {
  catalog.refresh();
  const store = new FeedStore(catalog.root);
  const dir = control.dir ?? feedsDir(dataDir);
  mkdirSync(dir, { recursive: true });
  removeTemporaries(dir);

  const full = request.kind === 'full';
  const previous = store.latest();
  const toSeq = catalog.lastChange();
  let fromSeq = 0;
  if (!full) {
    if (!previous) throw new RefrainError('bad_request', 'no feed yet: an incremental feed follows a full one (refrain feeds build --full)');
    fromSeq = previous.toSeq;
    if (toSeq <= fromSeq) return undefined;
  }

  const id = store.nextId();
  const file = feedFileName(id, full);
  const tmp = path.join(dir, `${file}.tmp`);
  const counter: LineCounter = { records: 0 };
  const lines = full ? fullFeedLines(catalog, counter) : incrementalFeedLines(catalog, fromSeq, toSeq, counter);
  const { bytes, sha256 } = await writeGzip(tmp, lines, control.gzipLevel ?? GZIP_LEVEL, control.signal);
  await rename(tmp, path.join(dir, file));
  await fsync(dir);
  return { id, created: isoSeconds(request.now), full, fromSeq, toSeq, file, bytes, sha256, records: counter.records };
}

/** Joins lines into large chunks: one stream write per line would cost more than the JSON. */
function* chunks(lines: Iterable<string>): Generator<string> {
  let chunk = '';
  for (const line of lines) {
    chunk += line + '\n';
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

async function writeGzip(file: string, lines: Iterable<string>, level: number, signal?: AbortSignal): Promise<{ bytes: number; sha256: string }> {
  const measure = measuringStream();
  try {
    // Readable.from pulls one chunk at a time, as fast as gzip and the disk take them.
    await pipeline(Readable.from(chunks(lines)), createGzip({ level }), measure.stream, createWriteStream(file, { mode: 0o644 }), { signal });
    await fsync(file);
  } catch (e) {
    rmSync(file, { force: true });
    throw e;
  }
  return { bytes: measure.bytes(), sha256: measure.sha256() };
}

/** fsync a file or directory (Linux flushes the inode whichever descriptor asks). */
async function fsync(target: string): Promise<void> {
  const fh = await open(target, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Temporary files of builds that did not finish (the caller holds the lock: none is running). */
function removeTemporaries(dir: string): void {
  for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(path.join(dir, name), { force: true });
}
