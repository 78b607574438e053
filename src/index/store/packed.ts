/**
 * Posting lists packed by frame of reference (docs/index-postings-plan.md): a list in blocks of
 * BLOCK postings, each block as its first value and every other value minus that first in the
 * fewest bits that hold the block's largest, packed low bit first into 32-bit words, a block
 * starting on a word. A value is read back in O(1) from its block's first, width and word, so a
 * searcher can decode a whole list or probe a long one (binary search over the block firsts, then
 * inside one block) without decoding it.
 */

/** Postings per block. */
export const BLOCK = 128;

/** Packed lists' columns: per block its first value, bit width and first word in `packed`; and the words. */
export interface PackedColumns {
  firsts: Uint32Array;
  widths: Uint8Array;
  starts: Uint32Array;
  packed: Uint32Array;
}

const bitsOf = (x: number): number => (x === 0 ? 0 : 32 - Math.clz32(x));

/** Words the packed form of an ascending list takes (the builder sizes its output with it). */
export function packedWords(list: ArrayLike<number>): number {
  let words = 0;
  for (let s = 0; s < list.length; s += BLOCK) {
    const end = Math.min(list.length, s + BLOCK);
    words += Math.ceil(((end - s - 1) * bitsOf(list[end - 1] - list[s])) / 32);
  }
  return words;
}

/**
 * Packs an ascending list (non-decreasing uint32) into `out` from word `at`, writing its blocks'
 * firsts, widths and start words at `block` on in the given arrays; returns the next free word.
 */
export function packList(
  list: ArrayLike<number>,
  out: PackedColumns,
  block: number,
  at: number,
): number {
  for (let s = 0; s < list.length; s += BLOCK, block++) {
    const end = Math.min(list.length, s + BLOCK);
    const first = list[s];
    const width = bitsOf(list[end - 1] - first);
    out.firsts[block] = first;
    out.widths[block] = width;
    out.starts[block] = at;
    let bit = 0;
    for (let i = s + 1; i < end; i++, bit += width) {
      const v = (list[i] - first) >>> 0;
      const word = at + (bit >>> 5);
      const shift = bit & 31;
      out.packed[word] |= v << shift;
      if (shift + width > 32) out.packed[word + 1] |= v >>> (32 - shift);
    }
    at += Math.ceil(bit / 32);
  }
  return at;
}

/** The value at position `i` (1 ≤ i < BLOCK) of a block: its first plus the i-th packed offset. */
export function blockValue(packed: Uint32Array, first: number, width: number, start: number, i: number): number {
  if (width === 0) return first;
  const bit = (i - 1) * width;
  const word = start + (bit >>> 5);
  const shift = bit & 31;
  let v = packed[word] >>> shift;
  if (shift + width > 32) v |= packed[word + 1] << (32 - shift);
  if (width < 32) v &= (1 << width) - 1;
  return (first + v) >>> 0;
}

/**
 * Decodes the `count` postings of a list whose blocks start at `block` into `out` (from index 0);
 * returns `out`'s view of them.
 */
export function unpackList(src: PackedColumns, block: number, count: number, out: Uint32Array): Uint32Array {
  const { firsts, widths, starts, packed } = src;
  let o = 0;
  for (let s = 0; s < count; s += BLOCK, block++) {
    const n = Math.min(BLOCK, count - s);
    const first = firsts[block];
    const width = widths[block];
    const mask = width === 32 ? -1 : (1 << width) - 1;
    out[o++] = first;
    // Uint32Array stores take the low 32 bits: first + offset needs no >>> 0.
    for (let i = 1, bit = starts[block] * 32; i < n; i++, bit += width) {
      const word = bit >>> 5;
      const shift = bit & 31;
      let v = packed[word] >>> shift;
      if (shift + width > 32) v |= packed[word + 1] << (32 - shift);
      out[o++] = first + (v & mask);
    }
  }
  return out.subarray(0, count);
}

/**
 * The first position in a packed list (`count` postings, blocks from `block`) whose value is at
 * least `value`, or `count` when none is: a binary search over the block firsts, then inside the
 * block over O(1) reads.
 */
export function seekPacked(
  src: PackedColumns,
  block: number,
  count: number,
  value: number,
): number {
  const blocks = Math.ceil(count / BLOCK);
  if (blocks === 0) return 0;
  // The last block whose first is below `value`: the answer is in it, or is the next block's first.
  let lo = 0;
  let hi = blocks - 1;
  if (src.firsts[block] >= value) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (src.firsts[block + mid] < value) lo = mid;
    else hi = mid - 1;
  }
  const b = block + lo;
  const n = Math.min(BLOCK, count - lo * BLOCK);
  let l = 1;
  let h = n;
  while (l < h) {
    const mid = (l + h) >>> 1;
    if (blockValue(src.packed, src.firsts[b], src.widths[b], src.starts[b], mid) < value) l = mid + 1;
    else h = mid;
  }
  return lo * BLOCK + l;
}
