/**
 * Parsing and validating one import line, shared by the import's reading thread and its strict
 * first pass; and the messages between that thread and the importer.
 */
import { isUtf8 } from 'node:buffer';
import { xxh64 } from '@node-rs/xxhash';
import { importRecordSchema, type ImportRecord } from './schema.js';
import type { SyncedForms } from './derive.js';
import type { TrackRecord } from './records.js';
import type { ContentKind } from './store.js';

export interface Rejection {
  file: string;
  line: number;
  reason: string;
}

export type ParsedLine = { ok: true; record: ImportRecord } | { ok: false; reason: string };

/** A record to write and the hash of the text it came from. */
export interface HashedRecord {
  record: ImportRecord;
  hash: string;
  /** A track's stored synced forms, when the reading thread computed them (else the writer does). */
  synced?: SyncedForms;
}

/**
 * A track line the import's reading thread made ready to put (parse-worker.ts): its track record,
 * made without the track's album (the writer completes it: derive.ts withAlbum), and every content
 * record of the line as the bytes its database stores (Catalog.contentEncoders).
 */
export interface EncodedTrack {
  track: TrackRecord;
  content: Partial<Record<ContentKind, Uint8Array>>;
  hash: string;
}

/** The change-detection hash of a record: xxh64 of its text (the import line's own, when there is one). */
export const hashOf = (text: string): string => xxh64(text).toString(16);

/**
 * hashOf a line's text, given also the bytes it was read from: valid UTF-8 bytes are the text's own
 * encoding, so they are hashed as they are instead of encoding the text again (the same hash).
 */
export const hashOfLine = (text: string, bytes: Uint8Array): string => xxh64(isUtf8(bytes) ? bytes : text).toString(16);

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

/** What the importer asks its reading thread for. */
export interface ParseRequest {
  files: string[];
  /** Lines per chunk: a batch, one write transaction. */
  batch: number;
  /** Which of the import's reading threads this is (0-based), and how many there are: it takes chunks reader, reader + readers, … */
  reader: number;
  readers: number;
  /** The data directory of the catalog the batches are for, when the thread encodes content (its encoders are read from it). */
  dataDir?: string;
}

/** A batch from the reading thread: `packed` is a msgpack array of HashedRecord and EncodedTrack. */
export interface ParsedBatch {
  /** Which chunk of the files' lines it holds (0-based): the writer applies them in this order. */
  chunk: number;
  packed: Uint8Array;
  /** The batch's time (ms since 1970): the encoded tracks' `updated_time` where their lines have none. */
  now: number;
  count: number;
  lines: number;
  tracks: number;
  rejections: Rejection[];
  /** Bytes read from disk so far, over all files. */
  bytesRead: number;
}
