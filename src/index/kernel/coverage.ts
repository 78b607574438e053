/**
 * Verification of a fingerprint candidate (docs/fingerprint.md): which characters of the query a
 * lyric accounts for. Matching grams are chained into runs that continue in the lyric too (the same
 * diagonal: query position + k ↔ lyric position + k), along the query: each gram where the run
 * before it continues in the lyric; where a run starts, at the occurrence of its gram from which
 * the lyric goes on matching the query longest (the first of those), so an exact passage is one run
 * however often its first words, or a chorus it continues, occur before it in the lyric. A run
 * counts when it is long (`STRONG_RUN` grams, 10 characters) or when the run next to it lies on a
 * nearby diagonal close by in the query: a passage with typos is a chain of short runs on one
 * diagonal, while common strings shared by unrelated texts ("of the ") are short runs scattered
 * over the lyric. A run too short to count on its own starts next to the run before it (its
 * diagonal, close by in the query) where the lyric has its gram there, else at the gram's first
 * occurrence: choosing, among the many places a common string occurs, the one going on longest
 * would find chance neighbours for prose. Where some run started elsewhere than at its gram's first
 * occurrence, the runs from the first occurrences are taken too (a choice for the longest run can
 * cut a chain of short ones): characters either counts are covered, and the longest passage is the
 * longer of the two. A lyric character accounts for one query character at most: a phrase the query
 * repeats counts twice only where the lyric holds it twice.
 */
import { GRAM, gramHashes, unspacedAt } from './grams.js';

/** Grams in a run that counts on its own… */
export const STRONG_RUN = 6;
/** …or in a script written without spaces (kernel/grams.ts `unspacedAt`), where 6 characters say as much as a few words. */
export const STRONG_UNSPACED_RUN = 2;
/** Grams in a run that counts when anchored by a neighbour. */
export const MIN_RUN = 2;
/** Neighbours: diagonals at most this far apart (insertions, deletions), runs this close in the query. */
const DIAGONAL_SLACK = 8;
const NEIGHBOUR_GAP = 24;
/**
 * Grams compared, per gram of the query and the lyric, in choosing where runs start. A text
 * repeating a few grams ("na na na") against a lyric repeating them has occurrences in the product
 * of their lengths; past this many, a run starts at its gram's first occurrence.
 */
export const STEPS_PER_GRAM = 4;
/** The filter a lyric's grams are looked up in before the query's hash table (QueryGrams.filter): at least 2^12 entries, about 16 per query gram, at most 2^16. */
const filterBits = (grams: number): number => Math.min(16, Math.max(12, Math.ceil(Math.log2(Math.max(1, grams) * 16))));

/** Whether a lyric character in [from, to) already accounts for a query character. */
function taken(used: Uint32Array, mark: number, from: number, to: number): boolean {
  for (let c = from; c < to; c++) if (used[c] === mark) return true;
  return false;
}

export interface CoverageResult {
  /** Query characters the lyric accounts for. */
  covered: number;
  /** Longest run of covered characters. */
  longest: number;
}

/**
 * The lyric side of a comparison, shared by every QueryGrams of the thread (a coverage() runs to
 * its end before another starts) and grown to the longest lyric compared. A QueryGrams is made for
 * each query; with arrays of its own it allocated and zeroed 48 KB each time (the native kernel's
 * LyricScratch, native-index/src/fingerprint.cc, is the same).
 */
const lyricSide = {
  hashes: new Uint32Array(4096),
  /** Per lyric position holding a query gram: its next occurrence (-1: none). */
  next: new Int32Array(4096),
  /** Lyric characters already accounting for a query character (== usedStamp). */
  used: new Uint32Array(4096),
  usedStamp: 0,
};

/** A stamp no character of lyricSide.used holds yet (the marks are cleared when the stamps wrap). */
function nextUsedStamp(): number {
  if (lyricSide.usedStamp === 0xffffffff) {
    lyricSide.used.fill(0);
    lyricSide.usedStamp = 0;
  }
  return ++lyricSide.usedStamp;
}

/** A query prepared once and compared with many lyrics. */
export class QueryGrams {
  /** Length of the normalised query. */
  readonly length: number;
  private readonly slotOf: Uint32Array;
  private readonly hashes: Uint32Array;
  private readonly keys: Uint32Array;
  private readonly used: Uint8Array;
  private readonly stamps: Uint32Array;
  /** Lyric position of the first and of the last occurrence of each query gram (valid where stamped). */
  private readonly positions: Int32Array;
  private readonly lastAt: Int32Array;
  private readonly mask: number;
  private readonly count: number;
  /** 1 where a query gram starts with a character of a script written without spaces. */
  private readonly unspaced: Uint8Array;
  /**
   * 1 at the top bits of each query gram's hash (`filterShift` drops the others): most of a
   * lyric's grams are not the query's, and this one look-up in a small table tells them so.
   */
  private readonly filter: Uint8Array;
  private readonly filterShift: number;
  private stamp = 0;
  /** Characters [start, end) and diagonal of the counted runs of the last walk(), by start. */
  private counted: number[] = [];
  /** Whether the last walk() started a run elsewhere than at its gram's first occurrence. */
  private changed = false;

  constructor(normalized: string) {
    this.length = normalized.length;
    const hashes = new Uint32Array(Math.max(normalized.length, 1));
    this.count = gramHashes(normalized, hashes);
    this.hashes = hashes;
    let size = 16;
    while (size < this.count * 2) size <<= 1;
    this.mask = size - 1;
    this.keys = new Uint32Array(size);
    this.used = new Uint8Array(size);
    this.stamps = new Uint32Array(size);
    this.positions = new Int32Array(size);
    this.lastAt = new Int32Array(size);
    this.slotOf = new Uint32Array(this.count);
    const bits = filterBits(this.count);
    this.filter = new Uint8Array(1 << bits);
    this.filterShift = 32 - bits;
    this.unspaced = new Uint8Array(this.count);
    for (let i = 0; i < this.count; i++) this.unspaced[i] = unspacedAt(normalized, i) ? 1 : 0;
    for (let i = 0; i < this.count; i++) {
      const h = hashes[i];
      let slot = h & this.mask;
      while (this.used[slot] && this.keys[slot] !== h) slot = (slot + 1) & this.mask;
      this.used[slot] = 1;
      this.keys[slot] = h;
      this.slotOf[i] = slot;
      this.filter[h >>> this.filterShift] = 1;
    }
  }

  /** How much of the query the normalised lyric accounts for. */
  coverage(lyric: string): CoverageResult {
    if (this.count === 0) return { covered: 0, longest: 0 };
    if (lyricSide.hashes.length < lyric.length) {
      lyricSide.hashes = new Uint32Array(lyric.length * 2);
      lyricSide.next = new Int32Array(lyric.length * 2);
    }
    const lyricHashes = lyricSide.hashes;
    const next = lyricSide.next;
    const n = gramHashes(lyric, lyricHashes);
    const stamp = ++this.stamp;
    const { keys, used, stamps, mask, filter, filterShift, positions, lastAt } = this;
    // Each query gram's occurrences in the lyric, chained in order.
    for (let i = 0; i < n; i++) {
      const h = lyricHashes[i];
      if (filter[h >>> filterShift] === 0) continue;
      let slot = h & mask;
      while (used[slot]) {
        if (keys[slot] === h) {
          if (stamps[slot] !== stamp) {
            stamps[slot] = stamp;
            positions[slot] = i;
          } else {
            next[lastAt[slot]] = i;
          }
          lastAt[slot] = i;
          next[i] = -1;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    // Runs along the query from each run's best start; when that is not the gram's first occurrence
    // somewhere, also from the first occurrences (the runs before this change, which such a choice
    // may cut short): the characters either counts, the longer of their longest passages.
    const best = this.walk(lyricHashes, n, stamp, true);
    if (!this.changed || best === this.length) return { covered: this.account(this.counted, [], lyricHashes, n, stamp), longest: best };
    const bestRuns = this.counted;
    this.counted = [];
    const first = this.walk(lyricHashes, n, stamp, false);
    const runs = this.counted;
    this.counted = bestRuns;
    return { covered: this.account(bestRuns, runs, lyricHashes, n, stamp), longest: Math.max(best, first) };
  }

  /**
   * Query characters covered by the counted runs of one or two walks ([start, end, diagonal]
   * triples by start), each lyric character accounting for one query character at most: a query
   * repeating a phrase ("artificial intelligence … real intelligence") that the lyric holds once
   * is that phrase once. A run whose place in the lyric an earlier run took is moved to another
   * occurrence of the same grams where the lyric has one (a chorus sung twice in both).
   */
  private account(a: number[], b: number[], lyricHashes: Uint32Array, n: number, stamp: number): number {
    if (lyricSide.used.length < n + GRAM) lyricSide.used = new Uint32Array((n + GRAM) * 2);
    const used = lyricSide.used;
    const mark = nextUsedStamp();
    const next = lyricSide.next;
    const { hashes } = this;
    let steps = STEPS_PER_GRAM * (n + this.count);
    let covered = 0;
    let coveredEnd = -1;
    for (let x = 0, y = 0; x < a.length || y < b.length; ) {
      let r: number[];
      let o: number;
      if (y >= b.length || (x < a.length && a[x] <= b[y])) {
        r = a;
        o = x;
        x += 3;
      } else {
        r = b;
        o = y;
        y += 3;
      }
      const start = r[o];
      const end = r[o + 1];
      if (end <= coveredEnd) continue;
      const from = Math.max(start, coveredEnd);
      let diagonal = r[o + 2];
      if (taken(used, mark, from + diagonal, end + diagonal)) {
        // Another occurrence of the run's grams, free.
        const grams = end - GRAM + 1 - start;
        const slot = this.slotOf[start];
        for (let j = this.stamps[slot] === stamp ? this.positions[slot] : -1; j >= 0 && steps > 0; j = next[j]) {
          if (j - start === diagonal || j + grams > n) continue;
          let t = 1;
          while (t < grams && lyricHashes[j + t] === hashes[start + t]) t++;
          steps -= t;
          if (t === grams && !taken(used, mark, from + j - start, end + j - start)) {
            diagonal = j - start;
            break;
          }
        }
      }
      for (let c = from; c < end; c++) {
        if (used[c + diagonal] === mark) continue;
        used[c + diagonal] = mark;
        covered++;
      }
      coveredEnd = end;
    }
    return covered;
  }

  /**
   * The runs along the query: each gram where the run before it continues in the lyric, else (a run
   * starts) at its first occurrence, or when `best` at the occurrence from which the lyric goes on
   * matching the query longest (the first of those; a run too short to count alone next to the run
   * before it, else at the first occurrence). Leaves the counted runs in `counted` (account() sums
   * what they cover) and returns their longest passage.
   */
  private walk(lyricHashes: Uint32Array, n: number, stamp: number, best: boolean): number {
    const { stamps, positions, hashes } = this;
    const next = lyricSide.next;
    const m = this.count;
    let steps = best ? STEPS_PER_GRAM * (n + m) : 0;
    this.changed = false;
    // Runs of grams matched at consecutive lyric positions: [start, end) in query grams, diagonal.
    const runs: number[] = [];
    let runStart = -1;
    let prev = -2;
    for (let i = 0; i <= m; i++) {
      const slot = i < m ? this.slotOf[i] : -1;
      let at = slot >= 0 && stamps[slot] === stamp ? positions[slot] : -2;
      if (at >= 0 && runStart >= 0 && prev + 1 < n && lyricHashes[prev + 1] === hashes[i]) {
        // Continue the run where the lyric continues it.
        at = prev + 1;
      } else if (at >= 0 && steps > 0 && next[at] >= 0) {
        let longest = 0;
        // The diagonal of the run before this one, when it ended close by in the query.
        let lastDiagonal = NaN;
        if (runStart >= 0 && i - runStart >= MIN_RUN) lastDiagonal = prev - (i - 1);
        else if (runs.length > 0 && i - runs[runs.length - 2] <= NEIGHBOUR_GAP) lastDiagonal = runs[runs.length - 1];
        let near = -1;
        for (let j = at; j >= 0; j = next[j]) {
          if (near < 0 && Math.abs(j - i - lastDiagonal) <= DIAGONAL_SLACK) near = j;
          // Not longer unless it matches at the end of the longest so far.
          steps--;
          if (longest > 0 && (i + longest >= m || j + longest >= n || lyricHashes[j + longest] !== hashes[i + longest])) continue;
          let k = 1;
          while (i + k < m && j + k < n && lyricHashes[j + k] === hashes[i + k]) k++;
          steps -= k;
          if (k > longest) {
            longest = k;
            at = j;
            if (i + k === m) break;
          }
        }
        // A run that would not count on its own: next to the run before it, else at the first occurrence.
        if (longest < (this.unspaced[i] === 1 ? STRONG_UNSPACED_RUN : STRONG_RUN)) at = near >= 0 ? near : positions[slot];
        if (at !== positions[slot]) this.changed = true;
      }
      if (runStart >= 0 && (at < 0 || at !== prev + 1)) {
        if (i - runStart >= MIN_RUN) runs.push(runStart, i, prev - (i - 1));
        runStart = -1;
      }
      if (at >= 0 && runStart < 0) runStart = i;
      prev = at;
    }
    // Union of the counted runs' characters: gram i covers characters [i, i + GRAM). The longest
    // passage is a stretch of the query whose runs follow one another in the lyric too (diagonals
    // within DIAGONAL_SLACK): pieces of the query found in different places of the lyric, however
    // they abut in the query, are not one passage of it.
    const counted = this.counted;
    counted.length = 0;
    let longest = 0;
    let passageStart = -1;
    let passageEnd = -1;
    let passageDiagonal = 0;
    for (let r = 0; r < runs.length; r += 3) {
      if (!this.counts(runs, r)) continue;
      const start = runs[r];
      const end = runs[r + 1] - 1 + GRAM;
      const diagonal = runs[r + 2];
      counted.push(start, end, diagonal);
      if (start <= passageEnd && Math.abs(diagonal - passageDiagonal) <= DIAGONAL_SLACK) {
        passageEnd = Math.max(passageEnd, end);
      } else {
        passageStart = start;
        passageEnd = end;
      }
      passageDiagonal = diagonal;
      if (passageEnd - passageStart > longest) longest = passageEnd - passageStart;
    }
    return longest;
  }

  /** Whether run r (an offset into runs) is long, or has a neighbour on a nearby diagonal. */
  private counts(runs: number[], r: number): boolean {
    const grams = runs[r + 1] - runs[r];
    if (grams >= STRONG_RUN || (grams >= STRONG_UNSPACED_RUN && this.unspaced[runs[r]] === 1)) return true;
    for (const o of [r - 3, r + 3]) {
      if (o < 0 || o >= runs.length) continue;
      const gap = o < r ? runs[r] - runs[o + 1] : runs[o] - runs[r + 1];
      if (gap <= NEIGHBOUR_GAP && Math.abs(runs[o + 2] - runs[r + 2]) <= DIAGONAL_SLACK) return true;
    }
    return false;
  }
}
