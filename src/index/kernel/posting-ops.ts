/**
 * Operations over posting lists shared by the searchers: sorted union and intersection with
 * per-document weights, membership, and a vote board for "which documents hold most of these keys".
 */
import { TopK } from './topk.js';
import { pastDeadline } from './deadline.js';

/**
 * A word clause's matching documents, ascending, with the relevance each earns: one number when
 * every document earns the same (a single posting list: no per-document array to allocate).
 */
export interface Clause {
  docs: Uint32Array;
  weights: Float32Array | number;
}

/** The relevance document i of a clause earns. */
export const weightAt = (c: Clause, i: number): number => (typeof c.weights === 'number' ? c.weights : c.weights[i]);

/**
 * Votes per document in a typed array (a Map costs ten times as much per vote), with the list of
 * documents touched so a query resets only those.
 */
export class VoteBoard {
  private readonly votes: Float32Array;
  private readonly touched: Uint32Array;
  private count = 0;
  private perGram = 0;
  /** Share of the grams whose lists were read (the rest were too common for the budget). */
  readShare = 0;

  constructor(size: number) {
    this.votes = new Float32Array(size);
    this.touched = new Uint32Array(Math.max(1, size));
  }

  /** Each list votes 1/grams for its documents, rarest lists first, within a postings budget. */
  add({ lists, grams }: { lists: Uint32Array[]; grams: number }, budget: number, deadline: number): void {
    this.perGram = 1 / Math.max(1, grams);
    this.readShare = 0;
    let read = 0;
    for (const list of lists) {
      if (read > 0 && read + list.length > budget) break;
      if (Date.now() > deadline) throw pastDeadline();
      read += list.length;
      this.readShare += this.perGram;
      for (let i = 0; i < list.length; i++) {
        const doc = list[i];
        if (this.votes[doc] === 0) this.touched[this.count++] = doc;
        this.votes[doc] += this.perGram;
      }
    }
  }

  /** Adds `extra` to documents that already have votes. */
  bonus(list: Uint32Array, extra: number): void {
    for (let i = 0; i < list.length; i++) if (this.votes[list[i]] > 0) this.votes[list[i]] += extra;
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
export function union(a: Clause, list: Uint32Array, weight: number): Clause {
  const docs = new Uint32Array(a.docs.length + list.length);
  const weights = new Float32Array(docs.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.docs.length || j < list.length) {
    if (j >= list.length || (i < a.docs.length && a.docs[i] < list[j])) {
      docs[n] = a.docs[i];
      weights[n++] = weightAt(a, i++);
    } else if (i >= a.docs.length || list[j] < a.docs[i]) {
      docs[n] = list[j++];
      weights[n++] = weight;
    } else {
      docs[n] = a.docs[i];
      weights[n++] = weightAt(a, i++) + weight;
      j++;
    }
  }
  return { docs: docs.subarray(0, n), weights: weights.subarray(0, n) };
}

/** Past this size ratio, intersecting gallops through the longer list instead of merging. */
const GALLOP_RATIO = 16;

/** Documents in every clause, their weights summed; smallest clause first, galloping into larger. */
export function intersect(clauses: Clause[], deadline: number): Clause {
  const sorted = [...clauses].sort((a, b) => a.docs.length - b.docs.length);
  let acc: Clause = sorted[0];
  for (let c = 1; c < sorted.length && acc.docs.length > 0; c++) {
    if (Date.now() > deadline) throw pastDeadline();
    acc = intersectTwo(acc, sorted[c]);
  }
  return acc;
}

/** `a` ∩ `b`, `a` the shorter; one weight per document only when either clause has them. */
function intersectTwo(acc: Clause, other: Clause): Clause {
  const scalar = typeof acc.weights === 'number' && typeof other.weights === 'number';
  // The same list twice (a word repeated in the query): every document, both weights.
  if (sameList(acc.docs, other.docs)) {
    if (scalar) return { docs: acc.docs, weights: (acc.weights as number) + (other.weights as number) };
    return { docs: acc.docs, weights: Float32Array.from(acc.docs, (_, i) => weightAt(acc, i) + weightAt(other, i)) };
  }
  const docs = new Uint32Array(acc.docs.length);
  const weights = scalar ? undefined : new Float32Array(acc.docs.length);
  let n = 0;
  const keep = (doc: number, i: number, j: number) => {
    docs[n] = doc;
    if (weights) weights[n] = weightAt(acc, i) + weightAt(other, j);
    n++;
  };
  if (other.docs.length < GALLOP_RATIO * acc.docs.length) {
    // Lists of similar size: a linear merge reads both sequentially (a few ns per element).
    const a = acc.docs;
    const b = other.docs;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] < b[j]) i++;
      else if (a[i] > b[j]) j++;
      else keep(a[i], i++, j++);
    }
  } else {
    // A much longer list: gallop through it from each document of the shorter one.
    let lo = 0;
    for (let i = 0; i < acc.docs.length; i++) {
      const at = lowerBound(other.docs, acc.docs[i], lo);
      if (at < other.docs.length && other.docs[at] === acc.docs[i]) keep(acc.docs[i], i, at);
      lo = at;
    }
  }
  return {
    docs: docs.subarray(0, n),
    weights: weights ? weights.subarray(0, n) : (acc.weights as number) + (other.weights as number),
  };
}

const sameList = (a: Uint32Array, b: Uint32Array): boolean => a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length;

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

export function contains(list: Uint32Array, doc: number): boolean {
  const at = lowerBound(list, doc, 0);
  return at < list.length && list[at] === doc;
}
