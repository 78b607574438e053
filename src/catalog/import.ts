/**
 * `refrain import`: streams JSONL or JSONL.gz files, validates each line with the import schema,
 * and writes in batched LMDB transactions. Reading, decompressing, parsing, validating and hashing
 * run on a reading thread (parse-worker.ts) while this thread writes, so the two overlap.
 * Bad lines are reported with their line number and skipped; with `strict` a first pass validates
 * everything and nothing is applied if any line is bad.
 */
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { unpack } from 'msgpackr';
import { applyBatch, type Outcome, type WriteEntry } from './write.js';
import { linesOf } from './lines.js';
import { parseLine, type ParsedBatch, type ParseRequest, type Rejection } from './parse.js';
import type { Catalog } from './store.js';
import { RefrainError } from '../errors.js';
import { siblingModule } from '../util/one-shot-worker.js';
import { errorCode, FILE_ERROR, fileProblem } from '../util/file-errors.js';

export interface ImportReport {
  files: string[];
  lines: number;
  imported: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** Deletes of records that were not in the catalog. */
  absent: number;
  rejected: number;
  /** The first rejections (at most MAX_LISTED), with line numbers and reasons. */
  rejections: Rejection[];
  seconds: number;
  /** Track lines processed per second. */
  tracksPerSecond: number;
}

export interface ImportOptions {
  strict?: boolean;
  /** Lines per write transaction (blank and rejected lines included). */
  batch?: number;
  /**
   * Reading threads, which then also encode the content records (default: readingThreads() for
   * files of ENCODE_BYTES or more; one that leaves the encoding to the writer for smaller ones).
   */
  readers?: number;
  /** Called after each batch with the bytes read so far, the total bytes, and the track lines done. */
  onProgress?: (bytesRead: number, bytesTotal: number, tracks: number) => void;
}

const MAX_LISTED = 1000;
/**
 * Files from this size on are read by readingThreads() threads that also encode the content (the
 * writer only puts it); smaller ones by one thread that leaves it to the writer, as each thread
 * costs its start (loading its modules, opening the catalog; over a second under the tests'
 * TypeScript loader) and a small import would not earn it back. 64 MiB: about 8,000 generated lines.
 */
const ENCODE_BYTES = 64 * 2 ** 20;

// Under the test runner the sources run as .ts; the built server runs .js. The worker inherits the
// process's loader flags, so the same extension works in both.
const WORKER_URL = siblingModule(import.meta.url, 'parse-worker');

/** Import files into the catalog; see the module comment for the rules. */
export async function importFiles(catalog: Catalog, files: string[], options: ImportOptions = {}): Promise<ImportReport> {
  const started = performance.now();
  const report: ImportReport = {
    files, lines: 0, imported: 0, updated: 0, unchanged: 0, deleted: 0, absent: 0, rejected: 0, rejections: [], seconds: 0, tracksPerSecond: 0,
  };
  let bytesTotal = 0;
  for (const file of files) {
    let info;
    try {
      info = await stat(file);
    } catch (e) {
      throw new RefrainError('bad_request', `cannot read ${file}: ${fileProblem(e)}`);
    }
    if (!info.isFile()) throw new RefrainError('bad_request', `cannot read ${file}: ${info.isDirectory() ? 'a directory' : 'not a regular file'}, not a catalog file`);
    bytesTotal += info.size;
  }
  if (options.strict) await validateAll(files).catch((e: unknown) => {
      throw fileFailure(e);
    });

  let tracks = 0;
  const large = options.readers !== undefined || bytesTotal >= ENCODE_BYTES;
  const readers = large ? Math.max(1, Math.floor(options.readers ?? readingThreads())) : 1;
  const batch = options.batch ?? 2000;
  const workers = Array.from({ length: readers }, (_, reader) => {
    const request: ParseRequest = { files, batch, dataDir: large ? catalog.dataDir : undefined, reader, readers };
    return new Worker(WORKER_URL, { workerData: request });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      // Chunks arrive from the threads in any order and are applied in theirs (parse-worker.ts).
      const arrived = new Map<number, ParsedBatch>();
      let next = 0;
      const ended: number[] = [];
      let failed = false;
      let bytesRead = 0;
      // The change log's times in order, whichever thread stamped its chunk.
      let now = 0;
      const fail = (e: unknown): void => {
        failed = true;
        reject(e);
      };
      const apply = (message: ParsedBatch): void => {
        const records = unpack(message.packed) as WriteEntry[];
        now = Math.max(now, message.now);
        if (records.length) for (const outcome of applyBatch(catalog, records, now)) count(report, outcome);
        report.lines += message.lines;
        report.rejected += message.rejections.length;
        for (const r of message.rejections) if (report.rejections.length < MAX_LISTED) report.rejections.push(r);
        tracks += message.tracks;
        workers[message.chunk % readers].postMessage('ack');
        // Each thread reads the whole files: progress is the furthest any has read.
        bytesRead = Math.max(bytesRead, message.bytesRead);
        options.onProgress?.(bytesRead, bytesTotal, tracks);
      };
      for (const worker of workers) {
        worker.on('error', (e) => fail(fileFailure(e)));
        worker.on('exit', (code) => {
          if (code !== 0) fail(new Error(`an import's reading thread exited with ${code}`));
        });
        worker.on('message', (message: ParsedBatch | { done: number }) => {
          if (failed) return;
          try {
            if ('done' in message) ended.push(message.done);
            else arrived.set(message.chunk, message);
            for (let ready = arrived.get(next); ready; ready = arrived.get(next)) {
              arrived.delete(next++);
              apply(ready);
            }
            if (ended.length === readers) {
              // Every thread counted the same lines (a file that changed while it was read would
              // not be), and every chunk up to the last line's was applied.
              const lines = ended[0];
              if (ended.some((n) => n !== lines) || arrived.size > 0 || next !== Math.ceil(lines / batch)) {
                throw new RefrainError('bad_request', `the files changed while they were read (${ended.join(', ')} lines): import them again once they no longer change`);
              }
              resolve();
            }
          } catch (e) {
            fail(e);
          }
        });
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  report.seconds = (performance.now() - started) / 1000;
  report.tracksPerSecond = Math.round(tracks / Math.max(report.seconds, 1e-3));
  return report;
}

/**
 * Reading threads an import starts by default: two, so that on two cores both are kept busy while
 * the writer waits for chunks (a reading thread's work per line is about twice the writer's, the
 * content records being encoded there: docs/benchmarks.md, "Import: where the time goes"); with
 * more cores, as many as keep the writer busy, at most four.
 */
export function readingThreads(): number {
  return Math.min(4, Math.max(2, availableParallelism() - 1));
}

/**
 * A file the reading thread (or strict mode's first pass) could not read or decompress becomes a
 * RefrainError with its one-line message; other errors pass unchanged.
 */
function fileFailure(e: unknown): unknown {
  return errorCode(e) === FILE_ERROR ? new RefrainError('bad_request', `cannot read ${(e as Error).message}`) : e;
}

function count(report: ImportReport, outcome: Outcome): void {
  report[outcome]++;
}

/** Strict mode's first pass: every line must be valid, or nothing is applied. */
async function validateAll(files: string[]): Promise<void> {
  for (const file of files) {
    for await (const { n, text } of linesOf(file)) {
      const parsed = parseLine(text);
      if (!parsed.ok) throw new RefrainError('bad_request', `${file}:${n}: ${parsed.reason} (strict: nothing was imported)`);
    }
  }
}
