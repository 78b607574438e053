/**
 * Posting lists: for each key (a gram bucket, a term id) the ascending ordinals of the documents
 * that hold it. Built in two passes over what the builder recorded (count per key, then fill), so a
 * list comes out sorted without sorting; stored in shards of whole keys, each a segment under the
 * typed-array limits, and read back as zero-copy views of the shared buffers.
 */
import { column, MAX_SEGMENT_BYTES, writeSegment, type LoadedIndex, type SegmentEntry } from './layout.js';

const CHUNK = 1 << 22;

/** An append-only list of uint32 too long for one array. */
export class U32List {
  private chunks: Uint32Array[] = [];
  private last = new Uint32Array(CHUNK);
  private used = 0;
  length = 0;

  push(v: number): void {
    if (this.used === CHUNK) {
      this.chunks.push(this.last);
      this.last = new Uint32Array(CHUNK);
      this.used = 0;
    }
    this.last[this.used++] = v;
    this.length++;
  }

  /** A function returning the values one by one, in order. */
  reader(): () => number {
    const all = [...this.chunks, this.last];
    let c = 0;
    let i = 0;
    return () => {
      if (i === CHUNK) {
        c++;
        i = 0;
      }
      return all[c][i++];
    };
  }

  /** Calls `fn` with every value in order. */
  forEach(fn: (v: number) => void): void {
    for (const c of this.chunks) for (let i = 0; i < CHUNK; i++) fn(c[i]);
    for (let i = 0; i < this.used; i++) fn(this.last[i]);
  }
}

/** Records each document's keys, in document order, then writes the posting lists. */
export class PostingsBuilder {
  private readonly keys = new U32List();
  private readonly sizes = new U32List();
  docs = 0;

  /** Adds the next document (ordinal = number of documents added before it) with distinct keys. */
  add(keys: ArrayLike<number>): number {
    for (let i = 0; i < keys.length; i++) this.keys.push(keys[i]);
    this.sizes.push(keys.length);
    return this.docs++;
  }

  get entries(): number {
    return this.keys.length;
  }

  /**
   * Writes the lists of keys 0..keySpace-1 as shards `<name>-<k>.bin` and returns their segment
   * entries and the number of keys per shard.
   */
  write(
    dir: string,
    name: string,
    keySpace: number,
    /** Largest shard in bytes (tests lower it to exercise sharding). */
    maxBytes = MAX_SEGMENT_BYTES,
  ): { segments: Record<string, SegmentEntry>; keysPerShard: number; shards: number } {
    const counts = new Uint32Array(keySpace);
    this.keys.forEach((k) => counts[k]++);
    let shards = 1;
    const fits = (n: number) => {
      const per = Math.ceil(keySpace / n);
      for (let s = 0; s < n; s++) {
        let total = 0;
        for (let k = s * per; k < Math.min(keySpace, (s + 1) * per); k++) total += counts[k];
        if ((total + per + 1) * 4 > maxBytes) return false;
      }
      return true;
    };
    while (!fits(shards)) shards *= 2;
    const keysPerShard = Math.ceil(keySpace / shards);
    const segments: Record<string, SegmentEntry> = {};
    for (let s = 0; s < shards; s++) {
      const first = s * keysPerShard;
      const end = Math.min(keySpace, first + keysPerShard);
      const offsets = new Uint32Array(keysPerShard + 1);
      for (let k = first; k < end; k++) offsets[k - first + 1] = offsets[k - first] + counts[k];
      for (let k = end - first; k < keysPerShard; k++) offsets[k + 1] = offsets[k];
      const postings = new Uint32Array(offsets[keysPerShard]);
      const fill = offsets.slice(0, keysPerShard);
      this.eachEntry((doc, key) => {
        if (key >= first && key < end) postings[fill[key - first]++] = doc;
      });
      segments[`${name}-${s}`] = writeSegment(dir, `${name}-${s}.bin`, { offsets, postings });
    }
    return { segments, keysPerShard, shards };
  }

  private eachEntry(fn: (doc: number, key: number) => void): void {
    const next = this.keys.reader();
    let doc = 0;
    this.sizes.forEach((n) => {
      for (let i = 0; i < n; i++) fn(doc, next());
      doc++;
    });
  }
}

/** Read side: the posting list of a key, as a view into the shared buffers. */
export class PostingsView {
  private readonly offsets: Uint32Array[] = [];
  private readonly postings: Uint32Array[] = [];
  private readonly keysPerShard: number;

  constructor(index: LoadedIndex, name: string) {
    const part = index.manifest.parts[name];
    this.keysPerShard = part.keysPerShard;
    for (let s = 0; s < part.shards; s++) {
      this.offsets.push(column(index, `${name}-${s}`, 'offsets', 'u32'));
      this.postings.push(column(index, `${name}-${s}`, 'postings', 'u32'));
    }
  }

  list(key: number): Uint32Array {
    const s = Math.floor(key / this.keysPerShard);
    const k = key - s * this.keysPerShard;
    const offsets = this.offsets[s];
    if (!offsets) return EMPTY;
    return this.postings[s].subarray(offsets[k], offsets[k + 1]);
  }

  size(key: number): number {
    const s = Math.floor(key / this.keysPerShard);
    const k = key - s * this.keysPerShard;
    const offsets = this.offsets[s];
    return offsets ? offsets[k + 1] - offsets[k] : 0;
  }
}

const EMPTY = new Uint32Array(0);
