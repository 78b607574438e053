/**
 * A small generated catalog for the catalog store's tests, and what a catalog holds as plain data
 * to compare two of them exactly (formats, import orders, compression).
 */
import { open } from 'lmdb';
import path from 'node:path';
import { Catalog, CONTENT_KINDS, INDEXES, everyId } from '../../src/catalog/store.js';
import { catalogLines } from '../../src/generate/catalog.js';

export type GeneratedRecord = { type: string; track_id?: number };

/** A generated catalog's lines as records: artists, albums and tracks in id order, as the generator writes them. */
export function generatedRecords(tracks = 300, seed = 5): GeneratedRecord[] {
  return [...catalogLines(seed, tracks, { artists: 0, albums: 0, tracks: 0, lines: 0 })].map((line) => JSON.parse(line) as GeneratedRecord);
}

/**
 * Every stored record of the catalog's record databases as it reads, every index key, and the
 * track count. Bytes (a synced body's compact form) as plain arrays: LMDB hands a value
 * decompressed from its own buffer, whose bytes msgpackr copies into a Buffer, and one read in place
 * into a Uint8Array.
 */
export function storedContents(catalog: Catalog): unknown {
  const plain = (value: unknown): unknown => {
    if (value instanceof Uint8Array) return [...value];
    if (Array.isArray(value)) return value.map(plain);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
    return value;
  };
  const all = (db: { getRange(o: object): Iterable<{ key: unknown; value: unknown }> }) => [...db.getRange(everyId())].map(({ key, value }) => [key, plain(value)]);
  return {
    tracks: all(catalog.tracks),
    artists: all(catalog.artists),
    albums: all(catalog.albums),
    content: Object.fromEntries(CONTENT_KINDS.map((kind) => [kind, all(catalog.content[kind])])),
    index: Object.fromEntries(INDEXES.map((name) => [name, [...catalog.index[name].getKeys()]])),
    count: catalog.trackCount(),
  };
}

/** An empty catalog as an older Refrain created it (format 1: shared structures at the top key; format 2: at 0, no dictionaries). */
export async function catalogOfFormat(dir: string, format: 1 | 2): Promise<Catalog> {
  const root = open({ path: path.join(dir, 'catalog'), maxDbs: 64 });
  const meta = root.openDB<unknown, string>({ name: 'meta' });
  meta.putSync('catalog:format', format);
  meta.putSync('catalog:genres:2', 1);
  await root.close();
  return Catalog.open(dir);
}

/**
 * Every entry of every database of a closed catalog as the bytes LMDB holds (hex), by database:
 * two catalogs written the same way are equal to the byte. The change log's values are left out
 * (each change holds the time it was made at).
 */
export async function storedBytes(dir: string): Promise<Record<string, string[]>> {
  const root = open({ path: path.join(dir, 'catalog'), maxDbs: 64, });
  const out: Record<string, string[]> = {};
  for (const name of root.getKeys()) {
    if (typeof name !== 'string') continue;
    const db = root.openDB<Buffer, Buffer>({ name, keyEncoding: 'binary', encoding: 'binary' });
    out[name] = [...db.getRange()].map(({ key, value }) => (name === 'changes' ? key.toString('hex') : `${key.toString('hex')} ${value.toString('hex')}`));
  }
  await root.close();
  return out;
}
