/**
 * Posting lists packed by frame of reference in byte-aligned blocks (docs/index-postings-plan.md).
 *
 * A shard's postings (every list of its keys one after the other, as the plain form stores them)
 * are cut into blocks of BLOCK positions. Each block keeps its smallest value (`bases`) and every
 * value minus it in 1, 2 or 4 bytes (`widths`: the fewest that hold the block's range), from a
 * place in `data` aligned to that width (`starts`, counted in values of that width). Lists keep
 * their places (the shard's offsets, postings.ts), so a list's length is known without reading it
 * and the value at any position is read back in O(1): a searcher reads the lists it votes with in
 * place and probes the long ones it only seeks in. Blocks ignore list boundaries: a block holding
 * the end of one list and the start of the next spans both ranges and takes 4 bytes, which costs
 * little (short lists hold a few percent of the postings).
 *
 * Measured on the 1M quality catalog's fingerprint lists: 4 → 2.27 bytes a posting, and about 5%
 * more engine time with the vote loop reading blocks in place (docs/benchmarks.md, "After: the
 * fingerprint's posting lists packed"); bit-exact widths took a quarter less room but decoded four
 * times slower (bench/index/packed.ts at the time).
 */

/** Positions per block. */
export const BLOCK = 128;
export const BLOCK_SHIFT = 7;

/** A shard's packed postings. */
export interface PackedColumns {
  /** Per block: its smallest value. */
  bases: Uint32Array;
  /** Per block: bytes per value, 1, 2 or 4. */
  widths: Uint8Array;
  /** Per block: where its values start in `data`, in units of its width (its index in the view of that width). */
  starts: Uint32Array;
  /** The values minus their block's base; padded to a multiple of 4 bytes. */
  data: Uint8Array;
}

const widthOf = (range: number): number => (range < 0x100 ? 1 : range < 0x1_0000 ? 2 : 4);

/**
 * The packed form of `values` (uint32, any order; posting lists are ascending runs), written over
 * them: `data` is a view of their buffer, so packing a shard needs no second copy of it (an index
 * build packs shards of up to 1 GiB). A block's values are read before they are overwritten: block
 * b is written from byte ≤ 512·b (every block before it took at most 4 bytes a value, and a whole
 * block of any width ends on a multiple of 4), and its value i at or below byte 512·b + 4·i, where
 * it was read from.
 */
export function pack(values: Uint32Array): PackedColumns {
  const blocks = Math.ceil(values.length / BLOCK);
  const bases = new Uint32Array(blocks);
  const widths = new Uint8Array(blocks);
  const starts = new Uint32Array(blocks);
  const data = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const u16 = new Uint16Array(values.buffer, values.byteOffset, values.length * 2);
  let bytes = 0;
  for (let b = 0; b < blocks; b++) {
    const from = b * BLOCK;
    const to = Math.min(values.length, from + BLOCK);
    let min = values[from];
    let max = min;
    for (let i = from + 1; i < to; i++) {
      const v = values[i];
      if (v < min) min = v;
      else if (v > max) max = v;
    }
    const width = widthOf(max - min);
    bytes = Math.ceil(bytes / width) * width;
    if (bytes > 4 * from) throw new Error('packed postings would overtake their input');
    bases[b] = min;
    widths[b] = width;
    let at = (starts[b] = bytes / width);
    const out = width === 1 ? data : width === 2 ? u16 : values;
    for (let i = from; i < to; i++) out[at++] = values[i] - min;
    bytes += (to - from) * width;
  }
  return { bases, widths, starts, data: data.subarray(0, Math.ceil(bytes / 4) * 4) };
}

/**
 * Reads a shard's packed postings by position. Its columns are open to loops that read blocks in
 * place (the fingerprint's vote loop): position p is in block p >>> BLOCK_SHIFT, at index
 * starts[b] + (p & (BLOCK - 1)) of the view of its width (u8, u16 or u32), plus bases[b].
 */
export class PackedReader {
  readonly bases: Uint32Array;
  readonly widths: Uint8Array;
  readonly starts: Uint32Array;
  readonly u8: Uint8Array;
  readonly u16: Uint16Array;
  readonly u32: Uint32Array;

  /** `data` must start on a multiple of 4 bytes of its buffer (index segments align columns to 8). */
  constructor({ bases, widths, starts, data }: PackedColumns) {
    this.bases = bases;
    this.widths = widths;
    this.starts = starts;
    this.u8 = data;
    this.u16 = new Uint16Array(data.buffer, data.byteOffset, data.length >>> 1);
    this.u32 = new Uint32Array(data.buffer, data.byteOffset, data.length >>> 2);
  }

  /** The value at position `p`. */
  at(p: number): number {
    const b = p >>> BLOCK_SHIFT;
    const width = this.widths[b];
    const i = this.starts[b] + (p & (BLOCK - 1));
    return this.bases[b] + (width === 1 ? this.u8[i] : width === 2 ? this.u16[i] : this.u32[i]);
  }

  /** Copies positions [from, to) into `out` from index 0. */
  decode(from: number, to: number, out: Uint32Array): void {
    const { bases, widths, starts, u8, u16, u32 } = this;
    let o = 0;
    for (let p = from; p < to; ) {
      const b = p >>> BLOCK_SHIFT;
      const end = Math.min(to, (b + 1) << BLOCK_SHIFT);
      const base = bases[b];
      const width = widths[b];
      let i = starts[b] + (p & (BLOCK - 1));
      // One loop per width: the common case (1 or 2 bytes) stays a plain indexed copy.
      if (width === 1) for (; p < end; p++) out[o++] = base + u8[i++];
      else if (width === 2) for (; p < end; p++) out[o++] = base + u16[i++];
      else for (; p < end; p++) out[o++] = base + u32[i++];
    }
  }
}

/** A posting list of a packed shard: its positions there and its length. */
export class PackedList {
  /** The last posting, once a seek needed it. */
  private last?: number;

  constructor(
    readonly reader: PackedReader,
    /** Its first position in the shard. */
    readonly start: number,
    readonly length: number,
  ) {}

  /** A list packed on its own (tests and benches). */
  static of(values: ArrayLike<number>): PackedList {
    return new PackedList(new PackedReader(pack(Uint32Array.from(values))), 0, values.length);
  }

  /** The i-th posting. */
  at(i: number): number {
    return this.reader.at(this.start + i);
  }

  /** The first `count` postings (all by default), as a view of `scratch` (grown as needed: the new one is returned in `into.scratch`). */
  decode(into: { scratch: Uint32Array }, count = this.length): Uint32Array {
    if (into.scratch.length < count) into.scratch = new Uint32Array(Math.max(count, 2 * into.scratch.length));
    this.decodeTo(into.scratch, count);
    return into.scratch.subarray(0, count);
  }

  /** Every posting, in a new array. */
  array(): Uint32Array {
    const out = new Uint32Array(this.length);
    this.decodeTo(out);
    return out;
  }

  /** Writes the first `count` postings (all by default) into `out` from index 0 (it must hold them). */
  decodeTo(out: Uint32Array, count = this.length): void {
    this.reader.decode(this.start, this.start + count, out);
  }

  /**
   * The first index at or after `lo` whose posting is ≥ `value`, or the length. The block holding it
   * is found first, by halving over the blocks' bases (a block wholly inside the list starts with
   * its base, its smallest posting): the bases are one small array, cached after the first seeks of
   * a run, where a search by positions would read four columns for every probe of a list of up to a
   * million postings. Then halving within at most two blocks. The list's first and last blocks may
   * hold another list's postings too, so their bases are not used.
   */
  seek(value: number, lo: number): number {
    const n = this.length;
    if (lo >= n || this.at(lo) >= value) return lo;
    const last = (this.last ??= this.at(n - 1));
    if (last < value) return n;
    const { bases } = this.reader;
    const start = this.start;
    // The blocks after lo's and before the list's last: the first of them whose base is ≥ value.
    const after = ((start + lo) >>> BLOCK_SHIFT) + 1;
    const lastBlock = (start + n - 1) >>> BLOCK_SHIFT;
    let first = after;
    for (let end = lastBlock; first < end; ) {
      const mid = (first + end) >>> 1;
      if (bases[mid] < value) first = mid + 1;
      else end = mid;
    }
    // Invariant: at(below) < value ≤ at(above). The block before `first` starts below value, and
    // `first` (when it is not the last block) starts at or above it.
    let below = first > after ? ((first - 1) << BLOCK_SHIFT) - start : lo;
    let above = first < lastBlock ? (first << BLOCK_SHIFT) - start : n - 1;
    while (above - below > 1) {
      const mid = (below + above) >>> 1;
      if (this.at(mid) < value) below = mid;
      else above = mid;
    }
    return above;
  }
}

export const EMPTY_LIST = PackedList.of([]);
