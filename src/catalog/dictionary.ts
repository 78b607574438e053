/**
 * Training a compression dictionary from sample values: the bytes a kind of record repeats across
 * records (a lyric's stock lines, the field layout of an analysis), gathered into one buffer that
 * LZ4 reads as if it preceded every value. A 1.5 KB lyric shares little with itself but much with
 * the catalog, so a dictionary made of the catalog's commonest passages lets each value refer to
 * them instead of spelling them out (docs/architecture.md, "Catalog store").
 *
 * The method is a cover of the samples by segments, after the one zstd's trainer uses: count how
 * often each run of DMER bytes occurs in the samples; split the samples into epochs; from each
 * epoch take the window of SEGMENT bytes whose distinct runs are the commonest; and once a run is in
 * the dictionary, it no longer counts. The best segments go last, nearest the value.
 */

/** Bytes per hashed run: long enough that a match is worth an LZ4 reference (at least 4 bytes). */
const DMER = 8;
/** Bytes per segment taken from an epoch. */
const SEGMENT = 128;
/** log2 of the frequency table's size. */
const TABLE_BITS = 20;
/** Passes over the samples: a dictionary takes about 1 / PASSES of each epoch's best. */
const PASSES = 4;

/**
 * A dictionary of at most `size` bytes (a multiple of 8, at least 8, as LMDB's LZ4 reads it) for
 * values like `samples`. Samples too few to choose from (less than twice `size`) are their own
 * dictionary, as much of them as fits.
 */
export function trainDictionary(samples: readonly Uint8Array[], size: number): Buffer {
  const wanted = Math.max(8, Math.floor(size / 8) * 8);
  let total = 0;
  for (const s of samples) total += s.length;
  const text = Buffer.alloc(Math.max(total, 8));
  let at = 0;
  for (const s of samples) {
    text.set(s, at);
    at += s.length;
  }
  if (wanted < SEGMENT || total < 2 * wanted) {
    const length = Math.min(wanted, Math.floor(text.length / 8) * 8);
    return Buffer.from(text.subarray(text.length - length));
  }
  const positions = total - DMER + 1;
  const hashes = new Uint32Array(positions);
  const freqs = new Uint32Array(1 << TABLE_BITS);
  for (let i = 0; i < positions; i++) {
    const h = dmerHash(text, i);
    hashes[i] = h;
    freqs[h]++;
  }

  const dictionary = Buffer.alloc(wanted);
  let tail = wanted;
  const epochs = Math.max(1, Math.min(Math.floor(wanted / SEGMENT / PASSES) || 1, Math.floor(positions / (SEGMENT * 10)) || 1));
  const epochSize = Math.floor(positions / epochs);
  const inWindow = new Uint16Array(1 << TABLE_BITS);
  let idle = 0;
  for (let epoch = 0; tail > 0 && idle < epochs; epoch = (epoch + 1) % epochs) {
    const begin = epoch * epochSize;
    const end = epoch === epochs - 1 ? positions : begin + epochSize;
    const best = bestSegment(hashes, freqs, inWindow, begin, end);
    if (best.score === 0) {
      idle++;
      continue;
    }
    idle = 0;
    // The segment's runs now cost nothing to refer to: no other segment gains by repeating them.
    for (let i = best.start; i < best.end; i++) freqs[hashes[i]] = 0;
    const bytes = Math.min(best.end - best.start + DMER - 1, tail);
    text.copy(dictionary, tail - bytes, best.start, best.start + bytes);
    tail -= bytes;
  }
  // Filled from the end: what is filled, from the first whole 8-byte word on.
  return dictionary.subarray(Math.ceil(tail / 8) * 8);
}

/** The window of SEGMENT positions in [begin, end) whose distinct runs have the largest frequency sum, trimmed of useless ends. */
function bestSegment(hashes: Uint32Array, freqs: Uint32Array, inWindow: Uint16Array, begin: number, end: number): { start: number; end: number; score: number } {
  let best = { start: begin, end: begin, score: 0 };
  let score = 0;
  let windowStart = begin;
  for (let i = begin; i < end; i++) {
    const h = hashes[i];
    if (inWindow[h]++ === 0) score += freqs[h];
    if (i - windowStart + 1 > SEGMENT) {
      const old = hashes[windowStart++];
      if (--inWindow[old] === 0) score -= freqs[old];
    }
    if (score > best.score) best = { start: windowStart, end: i + 1, score };
  }
  for (let i = windowStart; i < end; i++) inWindow[hashes[i]] = 0;
  // Runs nobody else holds at either end are bytes the dictionary would waste.
  let { start, end: stop } = best;
  while (start < stop && freqs[hashes[start]] <= 1) start++;
  while (stop > start && freqs[hashes[stop - 1]] <= 1) stop--;
  return { start, end: stop, score: stop > start ? best.score : 0 };
}

function dmerHash(text: Buffer, i: number): number {
  const lo = text.readUInt32LE(i);
  const hi = text.readUInt32LE(i + 4);
  return (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi ^ (lo >>> 15), 0x85ebca77)) >>> (32 - TABLE_BITS);
}
