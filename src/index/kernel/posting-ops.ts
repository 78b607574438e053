/**
 * Operations over posting lists shared by the searchers: sorted union and intersection with
 * per-document weights, membership, and a vote board for "which documents hold most of these keys".
 */
import { TopK } from './topk.js';
import { pastDeadline } from './deadline.js';
import { BLOCK, BLOCK_SHIFT, PackedList } from '../store/packed.js';

/**
 * A word clause's matching documents, ascending, with the relevance each earns: one number when
 * every document earns the same. A clause of a single posting list keeps it as stored (packed):
 * nothing is decoded or allocated until an operation reads it, and an intersection only probes a
 * much longer list.
 */
export interface Clause {
  docs: Uint32Array | PackedList;
  weights: Float32Array | number;
}

/** An intersection's documents, decoded. */
export interface Matched extends Clause {
  docs: Uint32Array;
}

/** The relevance document i of a clause earns. */
export const weightAt = (c: { weights: Float32Array | number }, i: number): number => (typeof c.weights === 'number' ? c.weights : c.weights[i]);

/** A clause's documents as an array of their own (a stored list decoded). */
const arrayOf = (docs: Uint32Array | PackedList): Uint32Array => (docs instanceof PackedList ? docs.array() : docs);

/**
 * Where a union or an intersection decodes the stored lists it reads and does not return: one pair
 * per thread (a searcher runs one query at a time), each grown to the longest list it held, at most
 * the index's document count.
 */
const shorter = { scratch: new Uint32Array(1024) };
const longer = { scratch: new Uint32Array(1024) };

/** A clause's documents as an array, a stored list decoded into `into`'s scratch: valid until it is used again. */
const readOf = (docs: Uint32Array | PackedList, into: { scratch: Uint32Array }): Uint32Array => (docs instanceof PackedList ? docs.decode(into) : docs);

/**
 * Votes per document in a typed array (a Map costs ten times as much per vote), with the list of
 * documents touched so a query resets only those.
 */
export class VoteBoard {
  private readonly votes: Float32Array;
  private readonly touched: Uint32Array;
  /** The list being read, decoded (grown as needed; a list is at most as long as the board). */
  scratch = new Uint32Array(1024);
  private count = 0;
  private perGram = 0;
  /** Share of the grams whose lists were read (the rest were too common for the budget). */
  readShare = 0;

  constructor(size: number) {
    this.votes = new Float32Array(size);
    this.touched = new Uint32Array(Math.max(1, size));
  }

  /** Each list votes 1/grams for its documents, rarest lists first, within a postings budget. */
  add({ lists, grams }: { lists: PackedList[]; grams: number }, budget: number, deadline: number): void {
    this.perGram = 1 / Math.max(1, grams);
    this.readShare = 0;
    let read = 0;
    for (const list of lists) {
      if (read > 0 && read + list.length > budget) break;
      if (Date.now() > deadline) throw pastDeadline();
      read += list.length;
      this.readShare += this.perGram;
      const docs = list.decode(this);
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i];
        if (this.votes[doc] === 0) this.touched[this.count++] = doc;
        this.votes[doc] += this.perGram;
      }
    }
  }

  /** Adds `extra` to documents that already have votes. */
  bonus(list: PackedList, extra: number): void {
    const docs = list.decode(this);
    for (let i = 0; i < docs.length; i++) if (this.votes[docs[i]] > 0) this.votes[docs[i]] += extra;
  }

  /** Share of the grams a document holds (before any bonus). */
  share(doc: number): number {
    return this.votes[doc];
  }

  /** The best `k` documents with at least `min` votes, best first; clears the board unless k is Infinity. */
  top(k: number, min: number): number[] {
    const out: number[] = [];
    if (k === Infinity) {
      for (let i = 0; i < this.count; i++) if (this.votes[this.touched[i]] >= min) out.push(this.touched[i]);
      return out;
    }
    const best = new TopK(k);
    for (let i = 0; i < this.count; i++) {
      const doc = this.touched[i];
      if (this.votes[doc] >= min) best.push(doc, this.votes[doc]);
    }
    this.clear();
    return best.sorted();
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) this.votes[this.touched[i]] = 0;
    this.count = 0;
  }
}

/** Sorted union of a clause and one more list (a doc in both earns both weights). */
export function union(a: Clause, packed: PackedList, weight: number): Clause {
  const list = packed.decode(longer);
  const mine = readOf(a.docs, shorter);
  const docs = new Uint32Array(mine.length + list.length);
  const weights = new Float32Array(docs.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < mine.length || j < list.length) {
    if (j >= list.length || (i < mine.length && mine[i] < list[j])) {
      docs[n] = mine[i];
      weights[n++] = weightAt(a, i++);
    } else if (i >= mine.length || list[j] < mine[i]) {
      docs[n] = list[j++];
      weights[n++] = weight;
    } else {
      docs[n] = mine[i];
      weights[n++] = weightAt(a, i++) + weight;
      j++;
    }
  }
  return { docs: docs.subarray(0, n), weights: weights.subarray(0, n) };
}

/** Past this size ratio, intersecting gallops through a longer array (a union's documents) instead of merging. */
const GALLOP_RATIO = 16;

/** Documents in every clause, their weights summed; smallest clause first, galloping into larger. */
export function intersect(clauses: Clause[], deadline: number): Matched {
  const sorted = [...clauses].sort((a, b) => a.docs.length - b.docs.length);
  let acc: Clause = sorted[0];
  for (let c = 1; c < sorted.length && acc.docs.length > 0; c++) {
    if (Date.now() > deadline) throw pastDeadline();
    acc = intersectTwo(acc, sorted[c]);
  }
  return { docs: arrayOf(acc.docs), weights: acc.weights };
}

/** `a` ∩ `b`, `a` the shorter; one weight per document only when either clause has them. */
function intersectTwo(acc: Clause, other: Clause): Clause {
  const scalar = typeof acc.weights === 'number' && typeof other.weights === 'number';
  // The same list twice (a word repeated in the query): every document, both weights.
  if (sameList(acc.docs, other.docs)) {
    if (scalar) return { docs: acc.docs, weights: (acc.weights as number) + (other.weights as number) };
    return { docs: acc.docs, weights: Float32Array.from({ length: acc.docs.length }, (_, i) => weightAt(acc, i) + weightAt(other, i)) };
  }
  const a = readOf(acc.docs, shorter);
  const docs = new Uint32Array(a.length);
  const weights = scalar ? undefined : new Float32Array(a.length);
  let n = 0;
  const keep = (doc: number, i: number, j: number) => {
    docs[n] = doc;
    if (weights) weights[n] = weightAt(acc, i) + weightAt(other, j);
    n++;
  };
  const long = other.docs;
  if (long instanceof PackedList) {
    if (long.length < STORED_GALLOP_RATIO * a.length) mergeStored(a, long, keep);
    else {
      // Many blocks per document of the shorter list: each probed from an interpolated guess.
      let lo = 0;
      for (let i = 0; i < a.length; i++) {
        const at = long.seek(a[i], lo);
        if (at < long.length && long.at(at) === a[i]) keep(a[i], i, at);
        lo = at;
      }
    }
  } else if (long.length < GALLOP_RATIO * a.length) {
    // Lists of similar size: a linear merge reads both sequentially (a few ns per element).
    const b = long;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] < b[j]) i++;
      else if (a[i] > b[j]) j++;
      else keep(a[i], i++, j++);
    }
  } else {
    let lo = 0;
    for (let i = 0; i < a.length; i++) {
      const at = lowerBound(long, a[i], lo);
      if (at < long.length && long[at] === a[i]) keep(a[i], i, at);
      lo = at;
    }
  }
  return {
    docs: docs.subarray(0, n),
    weights: weights ? weights.subarray(0, n) : (acc.weights as number) + (other.weights as number),
  };
}

/** Past this size ratio, intersecting probes a stored list instead of walking its blocks. */
const STORED_GALLOP_RATIO = 128;

/**
 * The documents of `a` that a stored list holds, passed to `keep` with their places in both, read
 * from the list's blocks in place (packed.ts): a block whose last posting is below the next document
 * of `a` is passed over after one read (a list's postings ascend, so that posting is the block's
 * largest of the list), the others are read posting by posting.
 */
function mergeStored(a: Uint32Array, list: PackedList, keep: (doc: number, i: number, j: number) => void): void {
  if (a.length === 0) return;
  const { reader } = list;
  let i = 0;
  let doc = a[0];
  for (let p = list.start, end = list.start + list.length; p < end; ) {
    const stop = Math.min(end, ((p >>> BLOCK_SHIFT) + 1) << BLOCK_SHIFT);
    if (reader.at(stop - 1) < doc) {
      p = stop;
      continue;
    }
    // Decoded first: one loop per width there, then a merge over a plain array.
    reader.decode(p, stop, block);
    for (let k = 0, n = stop - p; k < n; k++) {
      const v = block[k];
      while (doc < v) {
        if (++i === a.length) return;
        doc = a[i];
      }
      if (doc === v) {
        keep(v, i, p + k - list.start);
        if (++i === a.length) return;
        doc = a[i];
      }
    }
    p = stop;
  }
}

/** mergeStored's block, decoded. */
const block = new Uint32Array(BLOCK);

/** Whether two clauses hold the very same list (a word repeated in the query): the same stored list, or views of the same array. */
function sameList(a: Uint32Array | PackedList, b: Uint32Array | PackedList): boolean {
  if (a instanceof PackedList || b instanceof PackedList) {
    return a instanceof PackedList && b instanceof PackedList && a.reader === b.reader && a.start === b.start && a.length === b.length;
  }
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length;
}

/** First index ≥ lo whose value is ≥ v (galloping, then binary search). */
export function lowerBound(a: Uint32Array, v: number, lo: number): number {
  let step = 1;
  let hi = lo;
  while (hi < a.length && a[hi] < v) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, a.length);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * lowerBound for a value likely far from `lo` (ascending values looked up in a long list, far apart):
 * the first position at or after `lo` whose value is ≥ `value`, searched from where the value would be
 * if the list's values were evenly spread between list[lo] and its last, galloping out from there.
 * Posting lists are spread about evenly over the documents, so the guess is close and the search
 * touches a few cache lines where galloping from `lo` would touch a dozen or more.
 */
export function seek(list: Uint32Array, value: number, lo: number): number {
  const n = list.length;
  if (lo >= n || list[lo] >= value) return lo;
  const last = list[n - 1];
  if (last < value) return n;
  // list[lo] < value ≤ last: the answer is in (lo, n - 1]. Bracket it as list[low] < value ≤ list[high].
  const first = list[lo];
  const guess = Math.min(n - 1, lo + 1 + Math.floor(((value - first) / (last - first + 1)) * (n - 1 - lo)));
  let low: number;
  let high: number;
  let step = 1;
  if (list[guess] < value) {
    low = guess;
    high = guess + 1;
    while (list[high] < value) {
      low = high;
      step *= 2;
      high = Math.min(n - 1, low + step);
    }
  } else {
    high = guess;
    low = guess - 1;
    while (low > lo && list[low] >= value) {
      high = low;
      step *= 2;
      low = Math.max(lo, high - step);
    }
  }
  while (high - low > 1) {
    const mid = (low + high) >>> 1;
    if (list[mid] < value) low = mid;
    else high = mid;
  }
  return high;
}

/** Whether a stored list holds `doc`. */
export function contains(list: PackedList, doc: number): boolean {
  const at = list.seek(doc, 0);
  return at < list.length && list.at(at) === doc;
}

/** Of `docs` (ascending), those in every one of `lists`, ascending; the shortest lists are searched first. */
export function holdingEvery(docs: number[], lists: readonly PackedList[]): number[] {
  let kept = docs;
  for (const list of [...lists].sort((a, b) => a.length - b.length)) {
    if (kept.length === 0) break;
    const next: number[] = [];
    let at = 0;
    for (const doc of kept) {
      at = list.seek(doc, at);
      if (at === list.length) break;
      if (list.at(at) === doc) next.push(doc);
    }
    kept = next;
  }
  return kept;
}
