/**
 * Where an index generation lives and how its files are written and read back (docs/index.md).
 *
 *   <data>/index/CURRENT         name of the generation to serve (replaced by rename: atomic)
 *   <data>/index/<n>/manifest.json
 *   <data>/index/<n>/<segment>.bin   little-endian typed arrays, each segment at most 1 GiB
 *
 * A generation is written under `<n>.tmp` and renamed when complete, then CURRENT is switched, so a
 * reader only ever sees whole generations. A build that dies leaves its `<n>.tmp`: the next build,
 * and the next server start, remove it (removeUnfinishedGenerations). Segments are loaded into SharedArrayBuffers: every pool
 * worker reads the same memory.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { processAlive } from '../../util/lock-file.js';

/** Version of the segment layout; a generation written with another one is rebuilt, not read. */
export const INDEX_FORMAT = 8;

/** A typed array's element type as stored. */
export type ColumnType = 'u8' | 'u16' | 'u32' | 'f32';
type Typed = Uint8Array | Uint16Array | Uint32Array | Float32Array;

export interface SegmentEntry {
  file: string;
  bytes: number;
  /** Named arrays inside the file: element type, byte offset, element count. */
  columns: Record<string, { type: ColumnType; offset: number; length: number }>;
}

export interface Manifest {
  format: number;
  generation: number;
  created: string;
  /** The catalog's change sequence when the build started: later changes need a new generation. */
  catalogSeq: number;
  segments: Record<string, SegmentEntry>;
  /** Parameters and counts of each part (fingerprint, text, …). */
  parts: Record<string, Record<string, number>>;
  /** Seconds and bytes, for reports. */
  stats: Record<string, number>;
}

/** Loaded segments: one SharedArrayBuffer per segment, plus the manifest. Sent to pool workers. */
export interface LoadedIndex {
  /** Unique per load, so workers can keep their views of one generation. */
  id: number;
  dir: string;
  manifest: Manifest;
  buffers: Record<string, SharedArrayBuffer>;
}

/**
 * What a pool task carries of a generation: the shared buffers and the manifest as JSON text (a
 * string crosses threads as one copy; an object graph is cloned field by field on every task).
 */
export interface IndexHandle {
  id: number;
  dir: string;
  manifestJson: string;
  buffers: Record<string, SharedArrayBuffer>;
}

export const handleOf = (index: LoadedIndex): IndexHandle => ({ id: index.id, dir: index.dir, manifestJson: JSON.stringify(index.manifest), buffers: index.buffers });
export const indexOf = (handle: IndexHandle): LoadedIndex => ({ id: handle.id, dir: handle.dir, manifest: JSON.parse(handle.manifestJson) as Manifest, buffers: handle.buffers });

/** Largest segment written, in bytes (typed-array views and Buffers must stay well under 4 GiB). */
export const MAX_SEGMENT_BYTES = 2 ** 30;

export const indexRoot = (dataDir: string): string => path.join(dataDir, 'index');

/**
 * The generation CURRENT names, or undefined when none was built or it was written with another
 * segment layout (an older Refrain): then it is rebuilt rather than misread.
 */
export function currentGeneration(dataDir: string): string | undefined {
  try {
    const dir = path.join(indexRoot(dataDir), readFileSync(path.join(indexRoot(dataDir), 'CURRENT'), 'utf8').trim());
    return existsSync(path.join(dir, 'manifest.json')) && readManifest(dir).format === INDEX_FORMAT ? dir : undefined;
  } catch {
    return undefined;
  }
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

const WRITE_CHUNK = 1 << 24;

/** Writes one segment file from named arrays (each aligned to 8 bytes). */
export function writeSegment(dir: string, file: string, arrays: Record<string, Typed>): SegmentEntry {
  const columns: SegmentEntry['columns'] = {};
  let offset = 0;
  for (const [name, a] of Object.entries(arrays)) {
    columns[name] = { type: typeOf(a), offset, length: a.length };
    offset += Math.ceil(a.byteLength / 8) * 8;
  }
  if (offset > MAX_SEGMENT_BYTES) throw new Error(`segment ${file} would be ${offset} bytes (limit ${MAX_SEGMENT_BYTES})`);
  const fd = openSync(path.join(dir, file), 'w');
  try {
    let at = 0;
    const pad = new Uint8Array(8);
    for (const a of Object.values(arrays)) {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let i = 0; i < bytes.length; i += WRITE_CHUNK) writeSync(fd, bytes, i, Math.min(WRITE_CHUNK, bytes.length - i), at + i);
      at += bytes.length;
      const padding = Math.ceil(at / 8) * 8 - at;
      if (padding) writeSync(fd, pad, 0, padding, at);
      at += padding;
    }
  } finally {
    closeSync(fd);
  }
  return { file, bytes: offset, columns };
}

function typeOf(a: Typed): ColumnType {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Float32Array) return 'f32';
  return 'u32';
}

const CTORS = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, f32: Float32Array } as const;

/** A named array of a loaded segment. */
export function column<T extends ColumnType>(index: LoadedIndex, segment: string, name: string, type: T): InstanceType<(typeof CTORS)[T]> {
  const entry = index.manifest.segments[segment];
  const col = entry?.columns[name];
  if (!col || col.type !== type) throw new Error(`index segment ${segment} has no ${type} column ${name}`);
  const Ctor = CTORS[type] as unknown as new (b: ArrayBufferLike, offset: number, length: number) => InstanceType<(typeof CTORS)[T]>;
  return new Ctor(index.buffers[segment], col.offset, col.length);
}

/** Reads a segment file into a new SharedArrayBuffer without blocking the event loop. */
async function loadSegmentAsync(dir: string, entry: SegmentEntry): Promise<SharedArrayBuffer> {
  const sab = new SharedArrayBuffer(entry.bytes);
  const view = new Uint8Array(sab);
  const file = await open(path.join(dir, entry.file), 'r');
  try {
    for (let at = 0; at < entry.bytes; ) {
      const { bytesRead } = await file.read(view, at, Math.min(WRITE_CHUNK, entry.bytes - at), at);
      if (bytesRead === 0) throw new Error(`index segment ${entry.file} is shorter than its manifest says`);
      at += bytesRead;
    }
  } finally {
    await file.close();
  }
  return sab;
}

/** Loads every segment of a generation into SharedArrayBuffers, without blocking the event loop. */
export async function loadGenerationAsync(dir: string): Promise<LoadedIndex> {
  const manifest = readManifest(dir);
  if (manifest.format !== INDEX_FORMAT) throw new Error(`index ${dir} has format ${manifest.format}, this version reads ${INDEX_FORMAT}`);
  const buffers: Record<string, SharedArrayBuffer> = {};
  for (const [name, entry] of Object.entries(manifest.segments)) buffers[name] = await loadSegmentAsync(dir, entry);
  return { id: ++loads * 1000 + (process.pid % 1000), dir, manifest, buffers };
}

let loads = 0;

/**
 * Loads the generation CURRENT names (undefined when there is none). A publish deletes older
 * generations, so one can vanish while it is read: then CURRENT has moved on, and the new one is
 * loaded instead (a few times at most: each try means a whole build finished meanwhile).
 */
export async function loadCurrentGeneration(dataDir: string): Promise<LoadedIndex | undefined> {
  for (let attempt = 1; ; attempt++) {
    const dir = currentGeneration(dataDir);
    if (!dir) return undefined;
    try {
      return await loadGenerationAsync(dir);
    } catch (err) {
      if (attempt >= 3 || !superseded(dir, dataDir)) throw err;
    }
  }
}

/** Whether a generation is gone and CURRENT names another (a failed load of it is then no fault). */
export function superseded(dir: string, dataDir: string): boolean {
  return !existsSync(path.join(dir, 'manifest.json')) && currentGeneration(dataDir) !== dir;
}

/** Next generation number and its temporary directory. */
export function newGenerationDir(dataDir: string): { generation: number; tmp: string } {
  const root = indexRoot(dataDir);
  mkdirSync(root, { recursive: true });
  const numbers = readdirSync(root).map((n) => Number.parseInt(n, 10)).filter((n) => Number.isFinite(n));
  const generation = Math.max(0, ...numbers) + 1;
  const tmp = path.join(root, `${generation}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  // Whose it is: removeUnfinishedGenerations leaves a directory alone while this process lives.
  writeFileSync(path.join(tmp, BUILDER), String(process.pid));
  return { generation, tmp };
}

/**
 * Publishes a finished generation: rename its directory into place, switch CURRENT, and delete
 * every older generation. Servers hold what they serve in memory, not in these files; one that was
 * loading an older generation when it went finds CURRENT moved on and loads the new one
 * (loadCurrentGeneration). Keeping the previous one would double the index on disk (a 10M-track
 * generation is ~13 GB).
 */
export function publishGeneration(dataDir: string, tmp: string, manifest: Manifest): string {
  const root = indexRoot(dataDir);
  writeFileSync(path.join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 1));
  rmSync(path.join(tmp, BUILDER), { force: true });
  const dir = path.join(root, String(manifest.generation));
  renameSync(tmp, dir);
  writeFileSync(path.join(root, 'CURRENT.tmp'), `${manifest.generation}\n`);
  renameSync(path.join(root, 'CURRENT.tmp'), path.join(root, 'CURRENT'));
  for (const name of readdirSync(root)) {
    const n = Number.parseInt(name, 10);
    // Unfinished generations are removed before each build (removeUnfinishedGenerations).
    if (!name.endsWith('.tmp') && Number.isFinite(n) && n < manifest.generation) rmSync(path.join(root, name), { recursive: true, force: true });
  }
  return dir;
}

/**
 * Removes every unfinished generation (`<n>.tmp`, left by a build that was killed or failed) and a
 * stray `CURRENT.tmp`; returns the names removed. Only for a caller holding the build lock
 * (`index/build.lock`, src/index/service/build.ts): then no build, in this process or another, is writing
 * one of them.
 */
export function removeUnfinishedGenerations(dataDir: string): string[] {
  const root = indexRoot(dataDir);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return []; // no index directory yet
  }
  const removed = names.filter((name) => {
    const file = path.join(root, name);
    if (/^\d+\.tmp$/.test(name)) return !builderAlive(file);
    // CURRENT.tmp lives for the instant between a publish's write and rename.
    return name === 'CURRENT.tmp' && ageMs(file) > 60_000;
  });
  for (const name of removed) rmSync(path.join(root, name), { recursive: true, force: true });
  return removed;
}

/** The file in an unfinished generation naming the pid of the process building it. */
const BUILDER = '.builder';

/**
 * Whether the process that made an unfinished generation still runs. The build lock already keeps
 * two builds apart; this is the second guard, so that a build is never removed from under itself
 * (a directory without the file, from a build before it existed, counts as dead).
 */
function builderAlive(dir: string): boolean {
  try {
    return processAlive(Number(readFileSync(path.join(dir, BUILDER), 'utf8')));
  } catch {
    return false;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
