/**
 * The fingerprint's candidate stage (docs/fingerprint.md; the searcher, fingerprint/search.ts, says
 * what each stage is for): the query's keys vote for the lyrics holding them, each vote weighted by
 * the key's rarity (idf), the rarest keys first within postings budgets that grow with the query;
 * when no lyric leads clearly and keys were left unread, the best-voted lyrics also get the votes of
 * the shortest unread lists (refine); a tie of more lyrics than the candidates is kept, and narrowed
 * on demand (tie()) to those holding the query's word order (kernel/order.ts) and every unread key
 * (holdingEvery). This is the TypeScript reference; native-index/ has the same stage in C++
 * (native-index/src/fingerprint.cc), which must give the same answers.
 */
import { indexKeys } from './grams.js';
import { TopK } from './topk.js';
import { orderTier, ORDER_WORDS } from './order.js';
import { column, type LoadedIndex } from '../store/layout.js';
import { PackedPostingsView } from '../store/postings.js';
import { holdingEvery } from './posting-ops.js';
import { BLOCK, BLOCK_SHIFT, type PackedList } from '../store/packed.js';

/** How many postings a query's candidate stage reads, the rarest keys first. */
export interface PostingsLimits {
  /** At least this many, or `basePerKey` per key of the query… */
  base: number;
  basePerKey: number;
  /** …then on, up to this many (or `budgetPerKey` per key), while no lyric leads clearly (CLEAR_LEAD)… */
  budget: number;
  budgetPerKey: number;
  /** …and past that, up to this many (or the budget), while several lyrics tie for the most votes (noisy queries). */
  cap: number;
}

export const POSTINGS: PostingsLimits = { base: 10_000, basePerKey: 250, budget: 40_000, budgetPerKey: 1000, cap: 160_000 };
/** A lyric leads clearly when the runner-up holds less than this share of its vote. */
const CLEAR_LEAD = 0.5;
/** A candidate whose vote is below this share of the best vote is not verified. */
const VOTE_FLOOR = 0.3;
/** Best-voted lyrics that also get the votes of the keys the budget left unread… */
const REFINED = 256;
/** …of the shortest this many unread lists (the longer ones are the commonest lines: little evidence, most cost)… */
const REFINE_LISTS = 8;
/** …when the runner-up holds at least this share of the best vote (no clear leader). */
const AMBIGUOUS = 0.7;
/**
 * Without a word order (a text of fewer than four words), a tie of more lyrics than this is not
 * returned (fingerprint/search.ts says why the tie is walked); with one, each of its tiers keeps at
 * most this many + 1 before they are narrowed.
 */
export const MAX_TIED = 512;
/**
 * At most this many of the lyrics tied for the most votes are kept for tie(): a stock line ties
 * hundreds of thousands of lyrics (checking every one's word order took 2 ms at 1M tracks). When
 * only the first list was read they are its most popular; else the first the votes touched (the
 * first list's most popular, then in list order).
 */
export const TIE_SCANNED = 4096;
/**
 * Of a tie narrowed by word order, at most this many are returned, the best tiers first, narrowed by
 * the unread keys this many at a time (narrowing 512 took 2 ms at 1M tracks). The walk
 * (fingerprint/search.ts) reads at most 128 of them, in its own order: 128 here lost two sources of
 * shared 50-character excerpts at 1M that 256 keeps.
 */
export const MAX_ORDERED_TIE = 256;
/** A vote board's byte at this value means the lyric's vote is in its 16-bit board (FingerprintVotes.votes). */
const SATURATED = 0xff;

export interface Candidate {
  doc: number;
  vote: number;
}

/** What the candidate stage found for a query. */
export interface Candidates {
  /** The best-voted documents, best first. */
  candidates: Candidate[];
  /** How many of the query's keys have postings. */
  keys: number;
  /** Whether more documents tie for the most votes than there are candidates (CandidateStage.tie gives them). */
  tied: boolean;
  /** Whether some keys with postings were left unread. */
  unread: boolean;
}

/** The candidate stage over one index generation's fingerprint lists (one query at a time). */
export interface CandidateStage {
  /**
   * The `count` documents with the most weighted votes for a normalised query, best first, with the
   * budgets `scale` times the limits' (a second pass: at most `scale` times the cap).
   */
  candidates(query: string, count: number, scale?: number): Candidates;
  /**
   * After candidates(), when more documents tie for the most votes than there are candidates
   * (Candidates.tied): at most MAX_ORDERED_TIE of those holding `order` (the text's word order,
   * kernel/order.ts orderMask) and every key left unread, by tier of word order (those holding the
   * text's first and last pairs too first: orderTier), ascending within a tier; of the first
   * TIE_SCANNED tied. Without a word order: all of them, ascending, when at most MAX_TIED tie. Else
   * empty. Asked only when the candidates did not settle the query: a stock line ties hundreds of
   * thousands of lyrics.
   */
  tie(order?: Uint32Array): number[];
}

/** The TypeScript candidate stage. */
export class FingerprintVotes implements CandidateStage {
  private readonly postings: PackedPostingsView;
  /** Where the first list's first postings are decoded when it is the only one read. */
  private readonly decoded = { scratch: new Uint32Array(4096) };
  private readonly docs: number;
  /**
   * Votes per document in eighths of idf, up to 0xffff, kept in a byte while below SATURATED and
   * in `exact` from there on. Most postings a query reads are of lyrics holding one or two of its
   * keys, whose votes stay small: a byte per document halves the board the vote loop writes at
   * random (at 10M tracks 7.8 MB instead of 15.7, which a core's share of the last-level cache
   * keeps; measured 9 ns against 26 ns a posting), and `exact` is read only for the few lyrics
   * holding many of the query's keys.
   */
  private readonly votes: Uint8Array;
  private readonly exact: Uint16Array;
  private readonly touched: Uint32Array;
  /** Each document's word-order sketch, ORDER_WORDS words apiece. */
  private readonly sketches: Uint32Array;
  /** The last query's tie (tie()): the first TIE_SCANNED lyrics tied for the most votes, as they came, and its unread lists. */
  private tied: { docs: number[]; wanted: boolean; unread: PackedList[] } = { docs: [], wanted: false, unread: [] };
  private scratch = new Uint32Array(4096);
  private readonly bits: number;

  constructor(index: LoadedIndex, private readonly limits: PostingsLimits = POSTINGS) {
    this.postings = new PackedPostingsView(index, 'fp');
    this.bits = index.manifest.parts.fp.bucketBits;
    this.docs = column(index, 'fp-docs', 'track', 'u32').length;
    this.votes = new Uint8Array(this.docs);
    this.exact = new Uint16Array(this.docs);
    this.touched = new Uint32Array(this.docs + 1);
    this.sketches = column(index, 'fp-docs', 'order', 'u32');
    if (this.sketches.length !== this.docs * ORDER_WORDS) throw new Error(`fingerprint index: ${this.sketches.length} word-order words for ${this.docs} documents`);
  }

  /**
   * Documents with the most weighted votes, best first (the budgets `scale` times this.limits', a
   * second pass's at most `scale` times its cap), how many
   * of the query's keys have postings, whether some of those were left unread, and whether there
   * is a tie beyond them (tie()).
   */
  candidates(query: string, count: number, scale = 1): Candidates {
    if (this.scratch.length < query.length) this.scratch = new Uint32Array(query.length * 2);
    const keys = indexKeys(query, this.scratch, this.bits);
    const lists: PackedList[] = [];
    for (const key of keys) {
      const list = this.postings.list(key);
      if (list.length > 0) lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);

    // A longer text has more keys to read: the budgets grow with it (a lyric passage inside prose
    // must not lose its keys' turn to the prose's).
    // A second pass (scale > 1) reads at most `scale` times the cap of a short text, whatever the
    // text's length: a long text's first pass may already have read as much, and then none is made.
    const { limits } = this;
    const ceiling = scale === 1 ? Infinity : scale * limits.cap;
    const base = Math.min(ceiling, scale * Math.max(limits.base, lists.length * limits.basePerKey));
    const budget = Math.min(ceiling, scale * Math.max(limits.budget, lists.length * limits.budgetPerKey));
    const cap = Math.min(ceiling, scale * Math.max(limits.cap, lists.length * limits.budgetPerKey));
    const { votes, exact, touched } = this;
    let nTouched = 0;
    let read = 0;
    // The most votes, the lyric holding them, and the most votes of any other lyric.
    let best = 0;
    let bestDoc = -1;
    let second = 0;
    let next = 0;
    // The first list's votes are all its weight, known without reading it: they go on the board
    // only when a second list is read. A short text's first list is often a stock line's, held by
    // hundreds of thousands of lyrics, and often the only one read.
    let pending = false;
    for (; next < lists.length; next++) {
      const after = read + lists[next].length;
      if (read > 0 && after > base) {
        // Past the base budget only while no lyric leads clearly (an exact excerpt's rare keys
        // settle it early; an edited one's need more company), past the budget only while several
        // lyrics tie for the most votes (the keys read so far are clichés they share: a noisy
        // query lost its rarer keys), and never past the cap.
        if (second < CLEAR_LEAD * best) break;
        if (after > budget && (after > cap || second < best)) break;
      }
      read = after;
      const weight = this.weight(lists[next]);
      if (next === 0) {
        // What the loop below makes of the first list: every lyric of it gets `weight` (lists are
        // ascending and hold a lyric once), the first one leads.
        best = Math.min(0xffff, weight);
        bestDoc = lists[0].at(0);
        second = lists[0].length > 1 ? best : 0;
        pending = true;
        continue;
      }
      if (pending) {
        // The first list's lyrics are the first touched: decoded straight into that array.
        const n = lists[0].length;
        lists[0].decodeTo(touched, n);
        const vote = best;
        if (vote < SATURATED) for (let i = 0; i < n; i++) votes[touched[i]] = vote;
        else for (let i = 0; i < n; i++) (votes[touched[i]] = SATURATED), (exact[touched[i]] = vote);
        nTouched = n;
        pending = false;
      }
      // Read in place, block by block (packed.ts): each block's values are its base plus an
      // offset of 1, 2 or 4 bytes.
      const { reader, start, length } = lists[next];
      const { bases, widths, starts, u8, u16, u32 } = reader;
      for (let p = start, end = start + length; p < end; ) {
        const b = p >>> BLOCK_SHIFT;
        const stop = Math.min(end, (b + 1) << BLOCK_SHIFT);
        const base = bases[b];
        const width = widths[b];
        const offsets = width === 1 ? u8 : width === 2 ? u16 : u32;
        for (let i = starts[b] + (p & (BLOCK - 1)); p < stop; p++, i++) {
          const doc = base + offsets[i];
          const v = votes[doc];
          // Branch-free: the slot past the last touched lyric is written every time and kept when
          // the lyric had no vote.
          touched[nTouched] = doc;
          nTouched += (v - 1) >>> 31;
          let sum = v + weight;
          if (sum < SATURATED) {
            votes[doc] = sum;
          } else {
            sum = Math.min(0xffff, (v === SATURATED ? exact[doc] : v) + weight);
            votes[doc] = SATURATED;
            exact[doc] = sum;
          }
          // Most lyrics stay at or below the runner-up (the leader's own vote is always above it,
          // or equal at the 16-bit ceiling where nothing changes).
          if (sum > second) {
            if (doc === bestDoc) {
              best = sum;
            } else if (sum > best) {
              second = best;
              best = sum;
              bestDoc = doc;
            } else {
              second = sum;
            }
          }
        }
      }
    }
    const unread = lists.slice(next);
    // One pass over the touched lyrics gathers the leaders (as many as refinement may want) and
    // clears their votes for the next query.
    const floor = best * VOTE_FLOOR;
    const leading = unread.length > 0 ? Math.max(REFINED, count) : count;
    const top = new TopK(leading);
    /** The first TIE_SCANNED lyrics with the most votes, and how many there are. */
    const tied: number[] = [];
    let tiedAll = 0;
    if (pending) {
      // Only the first list was read: its lyrics tie, and ties go to the lower document. (A tie of
      // at most `count` lyrics is all candidates: none is kept.)
      const scanned = lists[0].length > count ? TIE_SCANNED : 0;
      const first = lists[0].decode(this.decoded, Math.min(lists[0].length, Math.max(scanned, leading)));
      tiedAll = lists[0].length;
      for (let i = 0; i < first.length && i < scanned; i++) tied.push(first[i]);
      for (let i = 0; i < first.length && i < leading; i++) top.push(first[i], best);
    }
    // Votes are whole numbers: at least the floor is at least its ceiling.
    const least = Math.ceil(floor);
    let entry = top.floor;
    for (let i = 0; i < nTouched; i++) {
      const doc = touched[i];
      const small = votes[doc];
      const vote = small === SATURATED ? exact[doc] : small;
      votes[doc] = 0;
      if (vote < least) continue;
      if (vote === best && tiedAll++ < TIE_SCANNED) tied.push(doc);
      // Equal votes go to the lower document, the more popular recording (documents are numbered by popularity).
      if (vote >= entry) {
        top.push(doc, vote);
        entry = top.floor;
      }
    }
    const leaders = top.entries().map(({ id, score }) => ({ doc: id, vote: score }));
    // A clear leader (an exact excerpt: its rare keys were read) needs no refinement; the wider
    // candidate list is only used when there is none.
    const refining = unread.length > 0 && leaders.length > 1 && leaders[1].vote >= AMBIGUOUS * leaders[0].vote;
    const candidates = refining ? refine(leaders, unread.slice(0, REFINE_LISTS), count, (list) => this.weight(list)) : leaders.slice(0, count);
    // Only a tie larger than the candidates is verified further (tie()).
    this.tied = { docs: tied, wanted: tiedAll > candidates.length, unread };
    return { candidates, keys: lists.length, tied: this.tied.wanted, unread: unread.length > 0 };
  }

  tie(order?: Uint32Array): number[] {
    const { docs, wanted, unread } = this.tied;
    if (!wanted) return [];
    // Of the tie, only the lyrics that may hold the whole query: those holding its word order, then
    // every unread key.
    if (!order) return docs.length > MAX_TIED ? [] : holdingEvery([...docs].sort((a, b) => a - b), unread);
    const tiers: number[][] = [[], [], []];
    for (const doc of docs) {
      const tier = 2 - orderTier(this.sketches, doc, order);
      if (tier < 3 && tiers[tier].length <= MAX_TIED) tiers[tier].push(doc);
    }
    const out: number[] = [];
    for (const tier of tiers) {
      tier.sort((a, b) => a - b);
      for (let from = 0; from < tier.length && out.length < MAX_ORDERED_TIE; from += MAX_ORDERED_TIE) {
        const kept = holdingEvery(tier.slice(from, from + MAX_ORDERED_TIE), unread);
        for (let i = 0; i < kept.length && out.length < MAX_ORDERED_TIE; i++) out.push(kept[i]);
      }
    }
    return out;
  }

  /** A key's vote: idf in eighths, at least 1. */
  private weight(list: { length: number }): number {
    return Math.max(1, Math.round(8 * Math.log(1 + this.docs / list.length)));
  }
}

/**
 * The best `count` of `first` (best first) once each also has the votes of the `unread` posting
 * lists, plus those among the first `count` before that which fell behind, in refined-vote order.
 */
export function refine(first: readonly Candidate[], unread: readonly PackedList[], count: number, weightOf: (list: PackedList) => number): Candidate[] {
  const byDoc = first.map((c) => ({ ...c })).sort((a, b) => a.doc - b.doc);
  for (const list of unread) {
    const weight = weightOf(list);
    let lo = 0;
    for (const c of byDoc) {
      lo = list.seek(c.doc, lo);
      if (lo === list.length) break;
      if (list.at(lo) === c.doc) c.vote += weight;
    }
  }
  const refined = byDoc.sort((a, b) => b.vote - a.vote || a.doc - b.doc);
  const chosen = refined.slice(0, count);
  const earlier = new Set(first.slice(0, count).map((c) => c.doc));
  for (const c of chosen) earlier.delete(c.doc);
  if (earlier.size > 0) chosen.push(...refined.filter((c) => earlier.has(c.doc)));
  return chosen;
}
