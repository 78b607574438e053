/**
 * The term dictionary: strings (a field tag and a word, a trigram, a title+artist key) to dense
 * term ids. Stored as an open-addressing table of two independent 32-bit hashes per term (a false
 * hit needs both to collide: about one in 2^64), so no string is kept in the index.
 */
import { column, writeSegment, type LoadedIndex, type SegmentEntry } from '../store/layout.js';
import { term } from './terms.js';
import { grown } from '../../util/grown.js';

/** The two hashes' states before any character (the hashes of the empty string, unfinished). */
const START_A = 0x811c9dc5;
const START_B = 0x9747b28c;

/** FNV-1a and a multiply-xorshift hash of the same UTF-16 string. */
export function termHashes(s: string): [number, number] {
  const b = stepB(START_B, s, 0, s.length);
  return [stepA(START_A, s, 0, s.length) >>> 0, finishB(b)];
}

/** The first hash's state after the characters s[from, to), from `a`. */
function stepA(a: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) a = Math.imul(a ^ s.charCodeAt(i), 0x01000193);
  return a;
}

/** The second hash's state after the characters s[from, to), from `b`. */
function stepB(b: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    b = Math.imul(b ^ s.charCodeAt(i), 0x5bd1e995);
    b ^= b >>> 15;
  }
  return b;
}

function finishB(b: number): number {
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  return (b ^ (b >>> 16)) >>> 0;
}

/**
 * Hashes of the terms of one field: `term(field, value)` hashed from the field's prefix, already
 * taken, so a word is hashed where it stands in a longer string, without cutting it out.
 */
export class FieldHasher {
  /** The field's number in its dictionary (the order fields were first used). */
  readonly index: number;
  private readonly a: number;
  private readonly b: number;
  /** The two hashes of the last term hashed. */
  h1 = 0;
  h2 = 0;

  constructor(field: string, index = 0) {
    this.index = index;
    const prefix = term(field, '');
    this.a = stepA(START_A, prefix, 0, prefix.length);
    this.b = stepB(START_B, prefix, 0, prefix.length);
  }

  /** Hashes term(field, s[from, to)) into h1 and h2. */
  hash(s: string, from: number, to: number): void {
    this.h1 = stepA(this.a, s, from, to) >>> 0;
    this.h2 = finishB(stepB(this.b, s, from, to));
  }
}

/**
 * Term ids by their two hashes, in an open-addressing table of its own (three words a slot: h1, h2,
 * id + 1), so a build keeps no term string (at 1M tracks, 1.1M terms: 25 MB of slots and 19 MB of
 * each id's hashes and field), and a word is looked up without being cut out of its text (FieldHasher).
 * Two terms whose hashes both collide are one term here, as they are one in the stored table.
 */
export class DictionaryBuilder {
  private slots = new Uint32Array(3 * 1024);
  private mask = 1023;
  /** Each field's hasher, in the order fields were first used (write() stores terms field by field). */
  private readonly hashers = new Map<string, FieldHasher>();
  /** By id: the term's field (its place in `hashers`) and its hashes. */
  private fieldOf: Uint8Array<ArrayBuffer> = new Uint8Array(1024);
  private hashesOf: Uint32Array<ArrayBuffer> = new Uint32Array(2 * 1024);
  /** Distinct terms so far. */
  size = 0;

  /** The hasher of a field's terms (made on first use). */
  field(field: string): FieldHasher {
    let hasher = this.hashers.get(field);
    if (!hasher) {
      // A field's number is a byte (fieldOf); the text index has a dozen fields.
      if (this.hashers.size === 256) throw new Error('a dictionary holds at most 256 fields');
      hasher = new FieldHasher(field, this.hashers.size);
      this.hashers.set(field, hasher);
    }
    return hasher;
  }

  /** The id of term(field, value), assigned on first sight. */
  id(field: string, value: string): number {
    const hasher = this.field(field);
    hasher.hash(value, 0, value.length);
    return this.idOf(hasher);
  }

  /** The id of the term `hasher` hashed last, assigned on first sight. */
  idOf(hasher: FieldHasher): number {
    const { h1, h2 } = hasher;
    const slots = this.slots;
    let slot = h1 & this.mask;
    for (;;) {
      const at = 3 * slot;
      const id = slots[at + 2];
      if (id === 0) break;
      if (slots[at] === h1 && slots[at + 1] === h2) return id - 1;
      slot = (slot + 1) & this.mask;
    }
    const id = this.size++;
    slots[3 * slot] = h1;
    slots[3 * slot + 1] = h2;
    slots[3 * slot + 2] = id + 1;
    if (id === this.fieldOf.length) {
      this.fieldOf = grown(this.fieldOf);
      this.hashesOf = grown(this.hashesOf);
    }
    this.fieldOf[id] = hasher.index;
    this.hashesOf[2 * id] = h1;
    this.hashesOf[2 * id + 1] = h2;
    if (4 * this.size > 3 * (this.mask + 1)) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = this.slots;
    this.mask = 2 * this.mask + 1;
    this.slots = new Uint32Array(3 * (this.mask + 1));
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] === 0) continue;
      let slot = old[at] & this.mask;
      while (this.slots[3 * slot + 2] !== 0) slot = (slot + 1) & this.mask;
      this.slots.set(old.subarray(at, at + 3), 3 * slot);
    }
  }

  /**
   * The table's slots: a power of two at most three quarters full (between 3/8 and 3/4 by the term
   * count). A look-up reads a few neighbouring slots more than a half-empty table would, once per
   * word of a query; the table is half the size (at 1M tracks, 1.1M terms: 25 MB instead of 50).
   * Terms go in field by field (in the order fields were first used), each field's in id order.
   */
  write(dir: string, name: string): SegmentEntry {
    let size = 16;
    while (4 * this.size > 3 * size) size <<= 1;
    const mask = size - 1;
    const h1 = new Uint32Array(size);
    const h2 = new Uint32Array(size);
    const ids = new Uint32Array(size);
    for (let field = 0; field < this.hashers.size; field++) {
      for (let id = 0; id < this.size; id++) {
        if (this.fieldOf[id] !== field) continue;
        const a = this.hashesOf[2 * id];
        let slot = a & mask;
        while (ids[slot] !== 0) slot = (slot + 1) & mask;
        h1[slot] = a;
        h2[slot] = this.hashesOf[2 * id + 1];
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
