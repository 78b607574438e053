/**
 * Posting lists: for each key (a gram bucket, a term id) the ascending ordinals of the documents
 * that hold it. Each key's count is kept as documents are added, which places every list; a fill
 * pass then puts what the builder recorded in place, so a list comes out sorted without sorting.
 * Stored in shards of whole keys, each a segment under the typed-array limits, and read back as
 * zero-copy views of the shared buffers.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { column, MAX_SEGMENT_BYTES, writeSegment, type LoadedIndex, type SegmentEntry } from './layout.js';
import { EMPTY_LIST, pack, PackedList, PackedReader, type PackedColumns } from './packed.js';
import { grown } from '../../util/grown.js';

const CHUNK = 1 << 22;

/**
 * An append-only list of uint32 too long for one array, read back in order. With a spill file, its
 * full chunks (16 MiB each) are written there instead of kept: the largest lists of an index build
 * (every document's keys: at 5M tracks about 3.4 GB for the fingerprint part and 2.3 GB for the text
 * part) then sit in the page cache, which the kernel can write out, not in the build's anonymous
 * memory, and are read back a chunk at a time. The file is opened for each chunk written or read and
 * closed at once, so a build stopped part-way (a terminated worker) leaves no descriptor open, only
 * the file in its generation's directory, which is removed with it. dispose() removes the file.
 */
export class U32List {
  private readonly chunks: Uint32Array[] = [];
  private last = new Uint32Array(CHUNK);
  private used = 0;
  /** Chunks written to the spill file. */
  private spilled = 0;
  length = 0;

  constructor(private readonly spill?: string) {}

  push(v: number): void {
    if (this.used === CHUNK) this.seal();
    this.last[this.used++] = v;
    this.length++;
  }

  /** Appends every value of `values`, a chunk's worth at a time. */
  pushAll(values: Uint32Array): void {
    for (let from = 0; from < values.length; ) {
      if (this.used === CHUNK) this.seal();
      const n = Math.min(values.length - from, CHUNK - this.used);
      this.last.set(values.subarray(from, from + n), this.used);
      this.used += n;
      from += n;
    }
    this.length += values.length;
  }

  private seal(): void {
    if (this.spill === undefined) {
      this.chunks.push(this.last);
      this.last = new Uint32Array(CHUNK);
    } else {
      const bytes = new Uint8Array(this.last.buffer);
      const fd = openSync(this.spill, this.spilled === 0 ? 'w' : 'r+');
      try {
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, this.spilled * bytes.length + done);
      } finally {
        closeSync(fd);
      }
      this.spilled++;
    }
    this.used = 0;
  }

  /** The values chunk by chunk, in order (a spilled chunk is read into one buffer, reused: use each before taking the next). */
  *eachChunk(): Generator<Uint32Array> {
    yield* this.chunks;
    const chunk = new Uint32Array(this.spilled > 0 ? CHUNK : 0);
    const bytes = new Uint8Array(chunk.buffer);
    for (let k = 0; k < this.spilled; k++) {
      const fd = openSync(this.spill!, 'r');
      try {
        for (let done = 0; done < bytes.length; ) {
          const read = readSync(fd, bytes, done, bytes.length - done, k * bytes.length + done);
          if (read === 0) throw new Error(`${this.spill}: ended before chunk ${k} of ${this.spilled}`);
          done += read;
        }
      } finally {
        closeSync(fd);
      }
      yield chunk;
    }
    yield this.last.subarray(0, this.used);
  }

  /** The values in one array (a list short enough for one: per-document columns). */
  toArray(): Uint32Array {
    const out = new Uint32Array(this.length);
    let at = 0;
    for (const chunk of this.eachChunk()) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  /** Frees the values and removes the spill file; `length` stays what was pushed. */
  dispose(): void {
    if (this.spilled > 0) rmSync(this.spill!, { force: true });
    this.spilled = 0;
    this.chunks.length = 0;
    this.last = new Uint32Array(0);
    this.used = 0;
  }
}

/** In a renumbering (PostingsBuilder.write's `renumber`): a document left out of the lists. */
export const LEFT_OUT = 0xffff_ffff;

/** Keys a builder takes at most (its counts array then holds 1 GiB); a key space is far smaller. */
const MAX_KEYS = 2 ** 28;

/** Records each document's keys, in document order, then writes the posting lists. */
export class PostingsBuilder {
  private readonly keys: U32List;
  private readonly sizes = new U32List();
  /** Entries per key so far (grown as keys appear): the lists' lengths, without a pass over the keys. */
  private counts: Uint32Array<ArrayBuffer> = new Uint32Array(1 << 16);
  private written = false;
  docs = 0;

  /** `spill`: a file for the recorded keys (U32List), removed once the lists are written. */
  constructor(spill?: string) {
    this.keys = new U32List(spill);
  }

  /** Adds the next document (ordinal = number of documents added before it) with distinct keys. */
  add(keys: Uint32Array | readonly number[]): number {
    if (this.written) throw new Error('a posting list builder takes no document once written');
    const stored = keys instanceof Uint32Array ? keys : Uint32Array.from(keys);
    let counts = this.counts;
    for (let i = 0; i < stored.length; i++) {
      const k = stored[i];
      if (k >= counts.length) counts = this.growCounts(k + 1);
      counts[k]++;
    }
    this.keys.pushAll(stored);
    this.sizes.push(stored.length);
    return this.docs++;
  }

  private growCounts(min: number): Uint32Array<ArrayBuffer> {
    if (min > MAX_KEYS) throw new Error(`key ${min - 1} is past the ${MAX_KEYS} keys a posting list builder takes`);
    return (this.counts = grown(this.counts, min));
  }

  get entries(): number {
    return this.keys.length;
  }

  /**
   * Writes the lists of keys 0..keySpace-1 as shards `<name>-<k>.bin`: consecutive key ranges, each
   * as large as fits in `maxBytes` (its offsets and postings), so a skewed key space (a few keys
   * with long lists) gives a few full shards, not many small ones. Each shard holds its first key
   * (column `first`). Filled in passes over the recorded entries, each pass as many shards as fit
   * in `maxBytes` together: a pass per shard would read every entry once per shard, a cost that
   * grows with the catalog times its shards. The postings are stored packed (packed.ts; read with
   * PackedPostingsView). `sparse`: only the keys that have a list are kept, with a directory
   * (keyDirectory), for a hashed key space that is mostly empty; else an offset for every key.
   * `renumber`: the posting of each document added, by the order added, or LEFT_OUT — for documents
   * added in another order than the one their lists keep (the fingerprint part reads lyrics in key
   * order and numbers them by popularity): each list is sorted once filled, and when some are left
   * out the keys are counted again without theirs. Returns the entries written.
   * Once only: the recorded keys are freed (and their spill file removed) when it returns.
   */
  write(
    dir: string,
    name: string,
    keySpace: number,
    { maxBytes = MAX_SEGMENT_BYTES, sparse = false, renumber }: {
      /** Largest shard in bytes, counted as plain uint32 postings (tests lower it to exercise sharding). */
      maxBytes?: number;
      sparse?: boolean;
      renumber?: Uint32Array;
    } = {},
  ): { segments: Record<string, SegmentEntry>; shards: number; entries: number } {
    if (this.written) throw new Error('a posting list builder is written once');
    this.written = true;
    try {
      if (renumber && renumber.length !== this.docs) throw new Error(`${name}: a renumbering of ${renumber.length} documents for ${this.docs}`);
      return this.writeShards(dir, name, keySpace, maxBytes, sparse, renumber);
    } finally {
      this.keys.dispose();
      this.counts = new Uint32Array(0);
    }
  }

  private writeShards(
    dir: string, name: string, keySpace: number, maxBytes: number, sparse: boolean, renumber: Uint32Array | undefined,
  ): { segments: Record<string, SegmentEntry>; shards: number; entries: number } {
    if (this.counts.length > keySpace && this.counts.subarray(keySpace).some((c) => c > 0)) throw new Error(`${name}: a key beyond the key space of ${keySpace}`);
    // Keys at the end of the key space may have no list (the text part's artist-only terms).
    let counts = this.counts.subarray(0, keySpace);
    if (counts.length < keySpace) {
      counts = new Uint32Array(keySpace);
      counts.set(this.counts);
    }
    const sizes = this.sizes.toArray();
    // Documents left out of a renumbering take their keys out of the counts (a pass over the entries).
    if (renumber?.includes(LEFT_OUT)) {
      counts.fill(0);
      this.eachEntry(sizes, renumber, (keys, docs) => {
        for (let i = 0; i < keys.length; i++) if (docs[i] !== LEFT_OUT) counts[keys[i]]++;
      });
    }
    const ranges = shardRanges(counts, maxBytes);
    const segments: Record<string, SegmentEntry> = {};
    let entries = 0;
    for (let s = 0; s < ranges.length; ) {
      // One pass over the entries fills the shards s..group-1.
      let group = s;
      let bytes = 0;
      while (group < ranges.length && (group === s || bytes + ranges[group].bytes <= maxBytes)) bytes += ranges[group++].bytes;
      const filling = ranges.slice(s, group).map(({ first, end }) => {
        const offsets = new Uint32Array(end - first + 1);
        for (let k = first; k < end; k++) offsets[k - first + 1] = offsets[k - first] + counts[k];
        return { first, end, offsets, postings: new Uint32Array(offsets[end - first]), fill: offsets.slice(0, end - first) };
      });
      this.fill(filling, sizes, renumber);
      for (const [i, f] of filling.entries()) {
        if (renumber) for (let k = 0; k + 1 < f.offsets.length; k++) if (f.offsets[k + 1] - f.offsets[k] > 1) f.postings.subarray(f.offsets[k], f.offsets[k + 1]).sort();
        const lists: Record<string, Uint32Array | Uint8Array> = { ...(sparse ? keyDirectory(f.offsets) : { offsets: f.offsets }), ...pack(f.postings) };
        segments[`${name}-${s + i}`] = writeSegment(dir, `${name}-${s + i}.bin`, { ...lists, first: Uint32Array.of(f.first) });
        entries += f.postings.length;
      }
      s = group;
    }
    return { segments, shards: ranges.length, entries };
  }

  /**
   * The recorded entries chunk by chunk, with each entry's posting: its document's number (the
   * order added), or the document's renumbering. The postings of a chunk are spelled out from the
   * per-document sizes first, so that what runs over the chunk is one tight loop: at 10M tracks it
   * runs over ~1.6 billion entries once per group of shards.
   */
  private eachEntry(sizes: Uint32Array, renumber: Uint32Array | undefined, visit: (keys: Uint32Array, docs: Uint32Array) => void): void {
    let doc = 0;
    let left = 0;
    let docs = new Uint32Array(0);
    for (const keys of this.keys.eachChunk()) {
      if (docs.length < keys.length) docs = new Uint32Array(keys.length);
      for (let i = 0; i < keys.length; i++) {
        while (left === 0) left = sizes[doc++];
        docs[i] = renumber === undefined ? doc - 1 : renumber[doc - 1];
        left--;
      }
      visit(keys, docs);
    }
  }

  /** One pass over the recorded entries, each put in its list if its key is one of `filling`'s shards. */
  private fill(filling: readonly Filling[], sizes: Uint32Array, renumber: Uint32Array | undefined): void {
    const firstKey = filling[0].first;
    const endKey = filling[filling.length - 1].end;
    let f = filling[0];
    this.eachEntry(sizes, renumber, (keys, docs) => {
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (key < firstKey || key >= endKey || docs[i] === LEFT_OUT) continue;
        // Shards of a pass are few: find the key's from the last one used.
        if (key < f.first || key >= f.end) f = filling.find((g) => key >= g.first && key < g.end)!;
        f.postings[f.fill[key - f.first]++] = docs[i];
      }
    });
  }
}

interface Filling {
  first: number;
  end: number;
  offsets: Uint32Array;
  postings: Uint32Array;
  /** Where each key's next posting goes. */
  fill: Uint32Array;
}

/** Bytes of a shard of `keys` keys and `entries` postings: its offsets, postings and first key, each padded to 8 bytes. */
const shardBytes = (keys: number, entries: number): number => Math.ceil(((keys + 1) * 4) / 8) * 8 + Math.ceil((entries * 4) / 8) * 8 + 8;

/** Consecutive key ranges [first, end), each as large as fits in `maxBytes` (a key whose list alone is larger gets a shard of its own). */
function shardRanges(counts: Uint32Array, maxBytes: number): { first: number; end: number; bytes: number }[] {
  const ranges: { first: number; end: number; bytes: number }[] = [];
  let first = 0;
  let entries = 0;
  for (let k = 0; k < counts.length; k++) {
    if (k > first && shardBytes(k - first + 1, entries + counts[k]) > maxBytes) {
      ranges.push({ first, end: k, bytes: shardBytes(k - first, entries) });
      first = k;
      entries = 0;
    }
    entries += counts[k];
  }
  ranges.push({ first, end: counts.length, bytes: shardBytes(counts.length - first, entries) });
  return ranges;
}

/** Entries of a key directory at most: its look-up narrows a key to a few candidates in one read. */
const DIRECTORY_BITS = 16;

/**
 * A shard's lists by the keys that have one, from its offsets for every key (a hashed key space is
 * mostly empty: at 1M tracks 1–5% of the fingerprint's 2^24 keys have a list, and offsets for all
 * of them took 67 MB): `keys` (ascending, relative to the shard's first key), `offsets` (where each
 * one's list starts, and the end), and `directory`: for each run of 2^shift keys, the index in
 * `keys` of its first present key, so a look-up searches only the present keys of one run.
 * `shape` holds [shift, the shard's key range].
 */
function keyDirectory(dense: Uint32Array): { keys: Uint32Array; offsets: Uint32Array; directory: Uint32Array; shape: Uint32Array } {
  const range = dense.length - 1;
  let present = 0;
  for (let k = 0; k < range; k++) if (dense[k + 1] > dense[k]) present++;
  const keys = new Uint32Array(present);
  const offsets = new Uint32Array(present + 1);
  let i = 0;
  for (let k = 0; k < range; k++) {
    if (dense[k + 1] === dense[k]) continue;
    keys[i] = k;
    offsets[i++] = dense[k];
  }
  offsets[present] = dense[range];
  const shift = Math.max(0, 32 - Math.clz32(range) - DIRECTORY_BITS);
  const directory = new Uint32Array((range >>> shift) + 2);
  for (let d = 0, j = 0; d < directory.length; d++) {
    while (j < present && keys[j] >>> shift < d) j++;
    directory[d] = j;
  }
  return { keys, offsets, directory, shape: Uint32Array.of(shift, range) };
}

/** Each shard's first key, ascending, and the shard of a key. */
class Shards {
  readonly firsts: Uint32Array;

  constructor(shards: readonly PackedShardColumns[]) {
    this.firsts = Uint32Array.from(shards, (shard) => shard.first);
  }

  get count(): number {
    return this.firsts.length;
  }

  /** The shard holding `key`: the last whose first key is not above it (shards are few: a short scan). */
  of(key: number): number {
    const { firsts } = this;
    let s = firsts.length - 1;
    while (s > 0 && firsts[s] > key) s--;
    return s;
  }
}

/** A shard's columns as written (writeShards): its first key, offsets and packed postings, and a sparse one's directory. */
export interface PackedShardColumns extends PackedColumns {
  first: number;
  offsets: Uint32Array;
  keys?: Uint32Array;
  directory?: Uint32Array;
  shape?: Uint32Array;
}

/** The columns of every shard of part `name`, as views of the index's shared buffers. */
export function packedShards(index: LoadedIndex, name: string): PackedShardColumns[] {
  return Array.from({ length: index.manifest.parts[name].shards }, (_, s) => {
    const segment = `${name}-${s}`;
    const sparse = 'keys' in index.manifest.segments[segment].columns;
    return {
      first: column(index, segment, 'first', 'u32')[0],
      offsets: column(index, segment, 'offsets', 'u32'),
      bases: column(index, segment, 'bases', 'u32'),
      widths: column(index, segment, 'widths', 'u8'),
      starts: column(index, segment, 'starts', 'u32'),
      data: column(index, segment, 'data', 'u8'),
      ...(sparse ? { keys: column(index, segment, 'keys', 'u32'), directory: column(index, segment, 'directory', 'u32'), shape: column(index, segment, 'shape', 'u32') } : {}),
    };
  });
}

/**
 * Read side of packed shards (packed.ts): the posting list of a key, read by position or decoded.
 * A sparse shard (keyDirectory) finds a key among the present ones; a dense one has an offset for
 * every key of its range.
 */
export class PackedPostingsView {
  private readonly shards: Shards;
  private readonly readers: PackedReader[] = [];
  private readonly keys: Uint32Array[] = [];
  private readonly offsets: Uint32Array[] = [];
  private readonly directories: Uint32Array[] = [];
  private readonly shifts: Uint32Array;
  private readonly ranges: Uint32Array;
  private readonly sparse: boolean[] = [];

  constructor(index: LoadedIndex, name: string) {
    const shards = packedShards(index, name);
    this.shards = new Shards(shards);
    this.shifts = new Uint32Array(shards.length);
    this.ranges = new Uint32Array(shards.length);
    shards.forEach((shard, s) => {
      this.readers.push(new PackedReader(shard));
      this.offsets.push(shard.offsets);
      this.sparse.push(shard.keys !== undefined);
      this.keys.push(shard.keys ?? EMPTY);
      this.directories.push(shard.directory ?? EMPTY);
      const shape = shard.shape ?? [0, shard.offsets.length - 1];
      this.shifts[s] = shape[0];
      this.ranges[s] = shape[1];
    });
  }

  list(key: number): PackedList {
    const shard = this.shards.of(key);
    const k = key - this.shards.firsts[shard];
    if (k >= this.ranges[shard]) return EMPTY_LIST;
    // The key's place among the shard's offsets: the key itself in a dense shard, its index among the present keys in a sparse one.
    const i = this.sparse[shard] ? this.present(shard, k) : k;
    if (i < 0) return EMPTY_LIST;
    const offsets = this.offsets[shard];
    const length = offsets[i + 1] - offsets[i];
    return length === 0 ? EMPTY_LIST : new PackedList(this.readers[shard], offsets[i], length);
  }

  /** The index of key `k` (relative to the shard's first) among a sparse shard's present keys, or -1. */
  private present(shard: number, k: number): number {
    const keys = this.keys[shard];
    const directory = this.directories[shard];
    const d = k >>> this.shifts[shard];
    // The present keys of k's run: a binary search over a few.
    let lo = directory[d];
    let hi = directory[d + 1];
    const end = hi;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < k) lo = mid + 1;
      else hi = mid;
    }
    return lo === end || keys[lo] !== k ? -1 : lo;
  }
}

const EMPTY = new Uint32Array(0);
