/**
 * `refrain import`: streams JSONL or JSONL.gz files (gzip is detected from the magic bytes, not the
 * name), validates each line with the import schema, and writes in batched LMDB transactions.
 * Bad lines are reported with their line number and skipped; with `strict` a first pass validates
 * everything and nothing is applied if any line is bad.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { importRecordSchema, type ImportRecord } from './schema.js';
import { applyBatch, hashOf, type HashedRecord, type Outcome } from './write.js';
import type { Catalog } from './store.js';
import { RefrainError } from '../errors.js';

export interface Rejection {
  file: string;
  line: number;
  reason: string;
}

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
  /** Records per write transaction. */
  batch?: number;
  /** Called after each batch with the bytes read so far, the total bytes, and the track lines done. */
  onProgress?: (bytesRead: number, bytesTotal: number, tracks: number) => void;
}

const MAX_LISTED = 1000;

type ParsedLine = { ok: true; record: ImportRecord } | { ok: false; reason: string };

/** Parse and validate one line of the import format. */
export function parseLine(text: string): ParsedLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `not JSON: ${(e as Error).message}` };
  }
  const parsed = importRecordSchema.safeParse(json);
  if (parsed.success) return { ok: true, record: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `${where}${issue.message}` };
}

interface Progress {
  bytesRead: number;
  bytesTotal: number;
}

/** The lines of a file, numbered from 1; blank lines are skipped. */
async function* linesOf(file: string, progress: Progress): AsyncGenerator<{ n: number; text: string }> {
  const magic = Buffer.alloc(2);
  const fh = await open(file, 'r');
  try {
    await fh.read(magic, 0, 2, 0);
  } finally {
    await fh.close();
  }
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  raw.on('data', (chunk) => (progress.bytesRead += chunk.length));
  const gz = magic[0] === 0x1f && magic[1] === 0x8b;
  const input: Readable = gz ? raw.pipe(createGunzip()) : raw;
  if (gz) raw.on('error', (e) => input.destroy(e));
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) {
    n++;
    if (text.trim() !== '') yield { n, text };
  }
}

/** Import files into the catalog; see the module comment for the rules. */
export async function importFiles(catalog: Catalog, files: string[], options: ImportOptions = {}): Promise<ImportReport> {
  const started = performance.now();
  const batchSize = options.batch ?? 2000;
  const report: ImportReport = {
    files, lines: 0, imported: 0, updated: 0, unchanged: 0, deleted: 0, absent: 0, rejected: 0, rejections: [], seconds: 0, tracksPerSecond: 0,
  };
  const progress: Progress = { bytesRead: 0, bytesTotal: 0 };
  for (const file of files) {
    try {
      progress.bytesTotal += (await stat(file)).size;
    } catch {
      throw new RefrainError(400, `cannot read ${file}: no such file`);
    }
  }
  if (options.strict) await validateAll(files);

  let tracks = 0;
  let batch: HashedRecord[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    for (const outcome of applyBatch(catalog, batch)) count(report, outcome);
    batch = [];
    options.onProgress?.(progress.bytesRead, progress.bytesTotal, tracks);
  };
  for (const file of files) {
    for await (const { n, text } of linesOf(file, progress)) {
      report.lines++;
      const parsed = parseLine(text);
      if (!parsed.ok) {
        report.rejected++;
        if (report.rejections.length < MAX_LISTED) report.rejections.push({ file, line: n, reason: parsed.reason });
        continue;
      }
      if (parsed.record.type === 'track') tracks++;
      batch.push({ record: parsed.record, hash: hashOf(text) });
      if (batch.length >= batchSize) flush();
    }
  }
  flush();
  report.seconds = (performance.now() - started) / 1000;
  report.tracksPerSecond = Math.round(tracks / Math.max(report.seconds, 1e-3));
  return report;
}

function count(report: ImportReport, outcome: Outcome): void {
  report[outcome]++;
}

/** Strict mode's first pass: every line must be valid, or nothing is applied. */
async function validateAll(files: string[]): Promise<void> {
  for (const file of files) {
    for await (const { n, text } of linesOf(file, { bytesRead: 0, bytesTotal: 0 })) {
      const parsed = parseLine(text);
      if (!parsed.ok) throw new RefrainError(400, `${file}:${n}: ${parsed.reason} (strict: nothing was imported)`);
    }
  }
}
