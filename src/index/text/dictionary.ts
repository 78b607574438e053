/**
 * The term dictionary: strings (a field tag and a word, a trigram, a title+artist key) to dense
 * term ids. Stored as an open-addressing table of two independent 32-bit hashes per term (a false
 * hit needs both to collide: about one in 2^64), so no string is kept in the index.
 */
import { column, writeSegment, type LoadedIndex, type SegmentEntry } from '../store/layout.js';
import { term } from './terms.js';

/** FNV-1a and a multiply-xorshift hash of the same UTF-16 string. */
export function termHashes(s: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  return [a >>> 0, (b ^ (b >>> 16)) >>> 0];
}

export class DictionaryBuilder {
  /** Ids by field tag, then by value: `term(field, value)` is spelled out only by write(), once per term. */
  private readonly fields = new Map<string, Map<string, number>>();
  /** Distinct terms so far. */
  size = 0;

  /** The id of term(field, value), assigned on first sight. */
  id(field: string, value: string): number {
    let values = this.fields.get(field);
    if (!values) {
      values = new Map();
      this.fields.set(field, values);
    }
    let id = values.get(value);
    if (id === undefined) {
      id = this.size++;
      values.set(value, id);
    }
    return id;
  }

  /**
   * The table's slots: a power of two at most three quarters full (between 3/8 and 3/4 by the term
   * count). A look-up reads a few neighbouring slots more than a half-empty table would, once per
   * word of a query; the table is half the size (at 1M tracks, 1.1M terms: 25 MB instead of 50).
   */
  write(dir: string, name: string): SegmentEntry {
    let size = 16;
    while (4 * this.size > 3 * size) size <<= 1;
    const mask = size - 1;
    const h1 = new Uint32Array(size);
    const h2 = new Uint32Array(size);
    const ids = new Uint32Array(size);
    for (const [field, values] of this.fields) {
      for (const [value, id] of values) {
        const [a, b] = termHashes(term(field, value));
        let slot = a & mask;
        while (ids[slot] !== 0) slot = (slot + 1) & mask;
        h1[slot] = a;
        h2[slot] = b;
        ids[slot] = id + 1;
      }
    }
    return writeSegment(dir, `${name}.bin`, { h1, h2, ids });
  }
}

export class DictionaryView {
  private readonly h1: Uint32Array;
  private readonly h2: Uint32Array;
  private readonly ids: Uint32Array;
  private readonly mask: number;

  constructor(index: LoadedIndex, name: string) {
    this.h1 = column(index, name, 'h1', 'u32');
    this.h2 = column(index, name, 'h2', 'u32');
    this.ids = column(index, name, 'ids', 'u32');
    this.mask = this.ids.length - 1;
  }

  /** The term's id, or -1 when the index has no such term. */
  lookup(term: string): number {
    const [a, b] = termHashes(term);
    for (let slot = a & this.mask; this.ids[slot] !== 0; slot = (slot + 1) & this.mask) {
      if (this.h1[slot] === a && this.h2[slot] === b) return this.ids[slot] - 1;
    }
    return -1;
  }
}
