/**
 * LZ4 block compression against a fixed dictionary, with the dictionary read once.
 *
 * LMDB's LZ4 (lmdb-js) loads a database's dictionary into its compressor before every value it
 * compresses: with an 8 KB dictionary that is 10–30 µs a value, five to ten times the put itself,
 * and the largest single cost of an import's writing thread. Here the dictionary's positions are
 * hashed once, when the compressor is made, and each value starts from a copy of that table.
 *
 * The output is what lmdb-js stores for a compressed value, so its reads decompress it as their own:
 * a header (254 and the value's length in 3 bytes, big-endian; or, from 16 MiB, 255, a zero byte
 * and the length in 6 bytes), then one LZ4 block whose matches may reach back into the dictionary,
 * as if it preceded the value. The block follows LZ4's rules: a match is at least 4 bytes, reaches
 * back at most 65,535 bytes, starts at least 12 bytes before the end, and the last 5 bytes are
 * literals. The matches are found as LZ4's fast mode finds them (one candidate per hashed 4 bytes,
 * a search that strides further the longer it finds nothing), so a value shrinks about as much.
 *
 * Two compressors write that form: LZ4's own code in the native addon (native-index/), which attaches
 * the dictionary it loaded once to each value's stream, and this module's TypeScript, the reference
 * and the fallback where the addon is not built. Importing 100k generated tracks took 13–23% less
 * CPU with the native one (2026-11-27, Intel machine: 39.7–44.9 s against 46.2–51.5 s in all
 * threads); a lyrics record alone 5.0–5.5 µs against 9.3–9.8.
 */
import { grown } from './grown.js';
import { nativeAddon, type NativeLz4Dictionary } from './native.js';

const MIN_MATCH = 4;
/** A match starts at least this many bytes before the end of the block. */
const MF_LIMIT = 12;
/** The last bytes of a block are always literals. */
const LAST_LITERALS = 5;
const MAX_OFFSET = 65_535;
const HASH_BITS = 12;
/** After 2^SKIP_TRIGGER positions without a match, the search strides one byte further. */
const SKIP_TRIGGER = 6;
/** Values from this length on take the long header (lmdb-js's limit for the 3-byte length). */
const LONG_VALUE = 0x1000000;

/** Compresses values as lmdb-js stores them compressed against one dictionary. */
export interface DictionaryCompressor {
  /**
   * `value` as lmdb-js stores it compressed. The bytes are the compressor's own, valid until its next
   * call: write them (a synchronous put copies them) before compressing another value.
   */
  compress(value: Uint8Array): Uint8Array;
}

/**
 * A compressor for `dictionary`: the native addon's (native-index/, LZ4's own code: about twice as
 * fast over lyrics records) when it loads, else this module's. Both write blocks any LZ4 decoder reads
 * back with the dictionary; they may choose different matches, so a catalog's bytes depend on which
 * one wrote them, never its records.
 */
export function dictionaryCompressor(dictionary: Uint8Array): DictionaryCompressor {
  const addon = nativeAddon();
  return addon ? new NativeLz4Compressor(new addon.Lz4Dictionary(reachable(dictionary))) : new Lz4DictionaryCompressor(dictionary);
}

/**
 * The part of a dictionary a value's matches can refer to: lmdb-js reads a dictionary in whole
 * 8-byte words, so a value follows its first length & ~7 bytes; of those, as far as a match can reach
 * back (the rest could never be referred to).
 */
function reachable(dictionary: Uint8Array): Uint8Array {
  const aligned = dictionary.length - (dictionary.length % 8);
  return dictionary.subarray(Math.max(0, aligned - MAX_OFFSET), aligned);
}

/** The header lmdb-js puts before a compressed value: 4 bytes, or 8 from 16 MiB on. */
const headerLength = (length: number): number => (length >= LONG_VALUE ? 8 : 4);

/** LZ4's bound on a block's length: every byte a literal, a length byte per 255 of them, the token. */
const blockBound = (length: number): number => length + Math.ceil(length / 255) + 16;

/** The native addon's compressor, with lmdb-js's header written before its block. */
class NativeLz4Compressor implements DictionaryCompressor {
  private out = new Uint8Array(4096);

  constructor(private readonly native: NativeLz4Dictionary) {}

  compress(value: Uint8Array): Uint8Array {
    const header = headerLength(value.length);
    const bound = header + blockBound(value.length);
    if (this.out.length < bound) this.out = new Uint8Array(bound * 2);
    const written = this.native.compressInto(value, this.out, header);
    if (written < 0) throw new Error(`LZ4 found no room for a block of ${value.length} bytes in ${bound}`);
    writeHeader(this.out, value.length, header);
    return this.out.subarray(0, header + written);
  }
}

/** LZ4 dictionary compression in TypeScript: the reference, and the compressor where the addon does not load. */
export class Lz4DictionaryCompressor implements DictionaryCompressor {
  /** The dictionary, then the value being compressed: matches index one buffer. */
  private window: Uint8Array<ArrayBuffer>;
  /** Position + 1 of the last dictionary place with each hash (0: none). */
  private readonly dictionaryTable = new Int32Array(1 << HASH_BITS);
  private readonly table = new Int32Array(1 << HASH_BITS);
  private out = new Uint8Array(4096);
  private readonly dictionaryLength: number;

  constructor(dictionary: Uint8Array) {
    const used = reachable(dictionary);
    this.dictionaryLength = used.length;
    this.window = new Uint8Array(used.length + 4096);
    this.window.set(used);
    // Every position, the later ones winning: the trained dictionary keeps its best passages last.
    for (let p = 0; p + MIN_MATCH <= used.length; p++) this.dictionaryTable[hash(this.window, p)] = p + 1;
  }

  compress(value: Uint8Array): Uint8Array {
    const start = this.dictionaryLength;
    const end = start + value.length;
    if (this.window.length < end) this.window = grown(this.window, end);
    const buf = this.window;
    buf.set(value, start);
    const header = headerLength(value.length);
    const bound = header + blockBound(value.length);
    if (this.out.length < bound) this.out = new Uint8Array(bound * 2);
    const out = this.out;
    writeHeader(out, value.length, header);
    let op = header;
    let anchor = start;
    if (value.length >= MF_LIMIT + 1) {
      const table = this.table;
      table.set(this.dictionaryTable);
      const limit = end - MF_LIMIT;
      const matchLimit = end - LAST_LITERALS;
      let ip = start;
      table[hash(buf, ip)] = ip + 1;
      ip++;
      search: for (;;) {
        // Find a candidate: the last place with the same hash, reaching back within the offset limit.
        let ref = 0;
        let searched = 1 << SKIP_TRIGGER;
        for (;;) {
          if (ip > limit) break search;
          const h = hash(buf, ip);
          ref = table[h] - 1;
          table[h] = ip + 1;
          if (ref >= 0 && ip - ref <= MAX_OFFSET && equal4(buf, ref, ip)) break;
          ip += searched++ >> SKIP_TRIGGER;
        }
        // Extend it backwards over literals not yet written, then forwards.
        while (ip > anchor && ref > 0 && buf[ip - 1] === buf[ref - 1]) {
          ip--;
          ref--;
        }
        let length = MIN_MATCH;
        while (ip + length < matchLimit && buf[ref + length] === buf[ip + length]) length++;
        op = writeSequence(out, op, buf, anchor, ip - anchor, ip - ref, length);
        ip += length;
        anchor = ip;
        if (ip > limit) break;
        table[hash(buf, ip - 2)] = ip - 2 + 1;
      }
    }
    op = writeLiterals(out, op, buf, anchor, end - anchor);
    return out.subarray(0, op);
  }
}

function hash(buf: Uint8Array, p: number): number {
  const word = buf[p] | (buf[p + 1] << 8) | (buf[p + 2] << 16) | (buf[p + 3] << 24);
  return Math.imul(word, 2654435761) >>> (32 - HASH_BITS);
}

function equal4(buf: Uint8Array, a: number, b: number): boolean {
  return buf[a] === buf[b] && buf[a + 1] === buf[b + 1] && buf[a + 2] === buf[b + 2] && buf[a + 3] === buf[b + 3];
}

function writeHeader(out: Uint8Array, length: number, header: number): void {
  if (header === 4) {
    out[0] = 254;
    out[1] = (length >>> 16) & 0xff;
    out[2] = (length >>> 8) & 0xff;
    out[3] = length & 0xff;
    return;
  }
  out[0] = 255;
  out[1] = 0;
  for (let i = 7, n = length; i >= 2; i--, n = Math.floor(n / 256)) out[i] = n % 256;
}

/** A length past a token's nibble: bytes of 255 and the rest. */
function writeLength(out: Uint8Array, op: number, rest: number): number {
  while (rest >= 255) {
    out[op++] = 255;
    rest -= 255;
  }
  out[op++] = rest;
  return op;
}

/** One sequence: `literals` bytes from `from`, then a match of `length` bytes `offset` back. */
function writeSequence(out: Uint8Array, op: number, buf: Uint8Array, from: number, literals: number, offset: number, length: number): number {
  const token = op++;
  const matchCode = length - MIN_MATCH;
  out[token] = ((literals < 15 ? literals : 15) << 4) | (matchCode < 15 ? matchCode : 15);
  if (literals >= 15) op = writeLength(out, op, literals - 15);
  op = copy(out, op, buf, from, literals);
  out[op++] = offset & 0xff;
  out[op++] = offset >>> 8;
  if (matchCode >= 15) op = writeLength(out, op, matchCode - 15);
  return op;
}

/** The block's last sequence: literals only. */
function writeLiterals(out: Uint8Array, op: number, buf: Uint8Array, from: number, literals: number): number {
  out[op++] = (literals < 15 ? literals : 15) << 4;
  if (literals >= 15) op = writeLength(out, op, literals - 15);
  return copy(out, op, buf, from, literals);
}

/** `count` bytes of `buf` from `from` written at `op`; returns the position after them. */
function copy(out: Uint8Array, op: number, buf: Uint8Array, from: number, count: number): number {
  if (count < 32) {
    for (let i = 0; i < count; i++) out[op + i] = buf[from + i];
  } else out.set(buf.subarray(from, from + count), op);
  return op + count;
}
