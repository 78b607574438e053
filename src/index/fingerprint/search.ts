/**
 * Fingerprint search (docs/fingerprint.md), run inside a pool worker:
 *
 * 1. Candidates: the query's keys (pairs of sampled grams, kernel/grams.ts) vote for the lyrics holding
 *    them, each vote weighted by the key's rarity (idf). Keys are read rarest first within
 *    postings budgets that grow with the query, so the clichés thousands of songs share cost
 *    nothing once rarer evidence is in: a base budget always, a larger one while no lyric leads
 *    clearly, and past that up to a cap only while several lyrics tie for the most votes.
 *    When keys were left unread and no lyric leads clearly (the runner-up has AMBIGUOUS of the
 *    best vote), the REFINED best-voted lyrics also get the votes of the REFINE_LISTS shortest of them,
 *    found by galloping through the long lists (a few steps per candidate, not a scan): a query
 *    made only of lines thousands of songs share (noise broke its rarer keys) is told apart by
 *    which song holds all of them. The candidates verified are the best after that and the best
 *    before it (the unread keys of prose around an embedded excerpt must not push the excerpt out).
 *    When the verified candidates account for only part of the query (an edited text) and keys were
 *    left unread, a second pass with DEEP times the budgets brings more candidates.
 * 2. Verification: the best candidates are compared gram by gram with the query (kernel/coverage.ts);
 *    `similarity` is the share of the query's characters the lyric accounts for, 0–100. It stops
 *    at candidates with far fewer votes than a verified match. Answers are ranked by similarity,
 *    except that those within TIE_WINDOW points (TIE_CHARS characters) of the best are ranked by characters covered plus longest passage:
 *    such similarities are equal evidence, and one long passage in common marks the source better
 *    than many short ones (a song sharing stock lines, or prose words around an excerpt).
 */
import { kernel, GRAM, pastDeadline, type QueryGrams, type TopK } from '../kernel/kernel.js';
import { column, type LoadedIndex } from '../store/layout.js';
import { PackedPostingsView } from '../store/postings.js';
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
/**
 * The second pass reads this many times the postings of the first, when the first found only part
 * of the query (a best similarity from DEEP_FROM to below DEEP_BELOW) and left keys unread. The
 * budgets are counts of postings, and a common line's list grows with the catalog: at 10M tracks the
 * first pass misses the source of a third of 200-character excerpts with one character in ten
 * changed, which 8 times the postings bring back to 0.92 (bench/results/quality-10035450.md; 16
 * times: 0.94).
 */
const DEEP = 8;
/**
 * Below this, the text is taken for one that holds no lyric, which screening sees most, and which
 * a second pass would make two to three times as costly (measured at 10M: two thirds of unrelated
 * texts are under 30, and a second pass for them took the p50 from 0.4 to 1.3 ms)…
 */
const DEEP_FROM = 30;
/** …and from this on, the lyric found accounts for the query (edited texts' sources score 75–96). */
const DEEP_BELOW = 90;
/**
 * Only a text of at least this many (normalised) characters takes the second pass: a line or a
 * 50-character excerpt has a few keys, mostly of stock lines with the longest lists, which 8 times
 * the budgets read to no gain (measured at 1M: the same answers, p99 of one line 2.9 → 5.2 ms).
 * A count of keys would not do: noise leaves a 200-character text as few keys as a 50-character one.
 */
const DEEP_CHARS = 100;
/** A lyric leads clearly when the runner-up holds less than this share of its vote. */
const CLEAR_LEAD = 0.5;
/** Candidates verified per query: at least this many, or 2 × size. */
const MIN_VERIFIED = 16;
/** A candidate whose vote is below this share of the best vote is not verified. */
const VOTE_FLOOR = 0.3;
/** Verification stops at a candidate with fewer votes than this share of a verified match's. */
const STOP_RATIO = 0.5;
/** Best-voted lyrics that also get the votes of the keys the budget left unread… */
const REFINED = 256;
/** …of the shortest this many unread lists (the longer ones are the commonest lines: little evidence, most cost)… */
const REFINE_LISTS = 8;
/** …when the runner-up holds at least this share of the best vote (no clear leader). */
const AMBIGUOUS = 0.7;
/**
 * At most this many lyrics tied for the most votes are looked at after the candidates, when none of
 * the candidates holds the whole query: an exact excerpt whose every key is a cliché of the catalog
 * (a stock line many songs share, each continuing it differently) ties with all of them, and the
 * candidates are only the most popular of those. The tie is first narrowed to the lyrics holding
 * every key the budgets left unread (a lyric holding the whole query holds all of its keys: pairs of
 * grams that follow one another in the query follow one another in that lyric too); of those, the
 * ones whose lyrics hold the query's words (the text index) are verified, most popular first, until
 * one holds the whole query.
 */
const MAX_TIED = 512;
/** A vote board's byte at this value means the lyric's vote is in its 16-bit board (FingerprintSearcher.votes). */
const SATURATED = 0xff;
/** A text with fewer keys than this (a line of a few words) also gets candidates by its words. */
const FEW_KEYS = 3;
/** Similarities within this many points of the best answer's are ranked by longest passage… */
export const TIE_WINDOW = 2;
/** …as are those within this many characters covered of it (a short text: 2 points of a line are one character). */
export const TIE_CHARS = 5;

/** A recording as answers list it: its tracks, most popular first, and its popularity. */
export interface Recording {
  tracks: number[];
  popularity: number;
}

export interface FingerprintHit {
  /** The track whose lyrics represent the recording in the index. */
  track: number;
  commontrack: number;
  /** 0–100: share of the query's characters this lyric accounts for. */
  similarity: number;
  /** Characters of the normalised query the lyric accounts for. */
  covered: number;
  /** Longest passage of the query found in the lyric, in normalised characters. */
  longest: number;
  /** The recording's tracks, most popular first. */
  tracks: number[];
}

export class FingerprintSearcher {
  private readonly postings: PackedPostingsView;
  /** Where the first list's first postings are decoded when it is the only one read. */
  private readonly decoded = { scratch: new Uint32Array(4096) };
  private readonly track: Uint32Array;
  private readonly common: Uint32Array;
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
  private scratch = new Uint32Array(4096);
  private readonly bits: number;

  constructor(
    index: LoadedIndex,
    /** Normalised lyrics of a track, or undefined when it has none any more. */
    private readonly lyricsOf: (trackId: number) => string | undefined,
    /**
     * A recording's track ids, in the order the API lists them (most popular first), and its
     * popularity (its best track's rating): equal answers, such as a line many songs share, go most
     * popular first. Read once per recording and search (one catalog range read and a record per version).
     */
    private readonly recordingOf: (commontrack: number, indexed: number) => Recording = (_, indexed) => ({ tracks: [indexed], popularity: 0 }),
    /**
     * Tracks whose lyrics hold every word of a text, one per recording, most popular first (the text
     * index, as track.search's q_lyrics): the candidates of a text too short to make FEW_KEYS keys.
     */
    private readonly wordCandidates?: (text: string, limit: number, deadline: number) => { track: number; commontrack: number }[],
    /** Of some tracks, those whose lyrics hold every one of some normalised words (the text index). */
    private readonly holdingWords?: (tracks: readonly number[], words: readonly string[]) => number[],
    private readonly limits: PostingsLimits = POSTINGS,
  ) {
    this.postings = new PackedPostingsView(index, 'fp');
    this.bits = index.manifest.parts.fp.bucketBits;
    this.track = column(index, 'fp-docs', 'track', 'u32');
    this.common = column(index, 'fp-docs', 'common', 'u32');
    this.docs = this.track.length;
    this.votes = new Uint8Array(this.docs);
    this.exact = new Uint16Array(this.docs);
    this.touched = new Uint32Array(this.docs + 1);
  }

  search(text: string, size: number, deadline: number): FingerprintHit[] {
    const query = kernel.normalizeText(text);
    if (query.length < GRAM || this.docs === 0) return [];
    const verified = Math.max(MIN_VERIFIED, 2 * size);
    const { candidates, keys, tied, unread } = this.candidates(query, verified);
    const grams = kernel.queryGrams(query);
    const hits: FingerprintHit[] = [];
    /** Similarity of each recording verified (0 when its lyric holds none of the query). */
    const seen = new Map<number, number>();
    const verify = (track: number, commontrack: number): number => {
      seen.set(commontrack, 0);
      const lyric = this.lyricsOf(track);
      if (lyric === undefined) return 0;
      const { covered, longest } = grams.coverage(lyric);
      if (covered === 0) return 0;
      const similarity = (100 * covered) / query.length;
      hits.push({ track, commontrack, similarity, covered, longest, tracks: [] });
      seen.set(commontrack, similarity);
      return similarity;
    };
    /**
     * Verifies candidates best-voted first, up to one with far fewer votes than a real match
     * (similarity ≥ 50) had; a recording verified before counts with its similarity, not read again.
     */
    const verifyCandidates = (list: readonly Candidate[]): void => {
      let strongVote = 0;
      for (const { doc, vote } of list) {
        if (Date.now() > deadline) throw pastDeadline();
        // Far fewer votes than a verified match: a lyric sharing only clichés with the query.
        if (vote < strongVote * STOP_RATIO) break;
        const similarity = seen.get(this.common[doc]) ?? verify(this.track[doc], this.common[doc]);
        if (similarity >= 50 && strongVote === 0) strongVote = vote;
      }
    };
    verifyCandidates(candidates);
    // Every candidate tied with more lyrics than were verified, and none holds the whole query (as
    // one passage: a lyric holding its lines in pieces, elsewhere and in another order, is not its
    // source): the rest of the tie, most popular first, until one does (or the deadline).
    // Only those whose lyrics hold the query's words are read (the first and the last may be cut).
    const whole = (h: FingerprintHit | undefined) => h !== undefined && h.longest === query.length;
    if (tied.length > 0 && this.holdingWords && !hits.some(whole)) {
      const words = kernel.wordsOf(query).slice(1, -1);
      const common = new Map<number, number>();
      for (const doc of tied) if (!seen.has(this.common[doc])) common.set(this.track[doc], this.common[doc]);
      for (const track of words.length > 0 ? this.holdingWords([...common.keys()], words) : []) {
        if (Date.now() > deadline) throw pastDeadline();
        if (verify(track, common.get(track)!) > 0 && whole(hits.at(-1))) break;
      }
    }
    // A line of a few words may make no key at all (one gram in four is sampled): its words find
    // the lyrics holding them all, which are verified the same way.
    if (keys < FEW_KEYS && this.wordCandidates) {
      for (const c of this.wordCandidates(text, verified, deadline)) {
        if (Date.now() > deadline) throw pastDeadline();
        if (!seen.has(c.commontrack)) verify(c.track, c.commontrack);
      }
    }
    // Only part of the query found, and keys left unread: a text edited enough that its rarer keys
    // are gone (typos, replaced words), whose commonest lines outvoted its source among the lists
    // the budgets let in. A second pass reads DEEP times as many postings (at most DEEP times the
    // cap of a short text: about 1.3M postings, some 13 ms); none when the first could already read as many.
    if (unread && query.length >= DEEP_CHARS && keys * this.limits.budgetPerKey < DEEP * this.limits.cap) {
      const best = hits.reduce((top, h) => Math.max(top, h.similarity), 0);
      if (best >= DEEP_FROM && best < DEEP_BELOW) {
        if (Date.now() > deadline) throw pastDeadline();
        verifyCandidates(this.candidates(query, verified, DEEP).candidates);
      }
    }
    const recordings = new Map<number, Recording>();
    const recording = (commontrack: number, indexed: number): Recording => {
      let r = recordings.get(commontrack);
      if (r === undefined) recordings.set(commontrack, (r = this.recordingOf(commontrack, indexed)));
      return r;
    };
    const top = shareEvidence(rank(hits, (commontrack, indexed) => recording(commontrack, indexed).popularity, size)).slice(0, size);
    for (const hit of top) hit.tracks = recording(hit.commontrack, hit.track).tracks;
    return top;
  }

  /**
   * Documents with the most weighted votes, best first (the budgets `scale` times this.limits', a
   * second pass's at most `scale` times its cap), how many
   * of the query's keys have postings, and whether some of those were left unread.
   */
  private candidates(query: string, count: number, scale = 1): { candidates: Candidate[]; keys: number; tied: number[]; unread: boolean } {
    if (this.scratch.length < query.length) this.scratch = new Uint32Array(query.length * 2);
    const keys = kernel.indexKeys(query, this.scratch, this.bits);
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
    const top = kernel.topK(leading);
    /** The lyrics with the most votes (while they are few enough to verify). */
    let tied: number[] = [];
    if (pending) {
      // Only the first list was read: its lyrics tie, and ties go to the lower document.
      const first = lists[0].decode(this.decoded, Math.min(lists[0].length, Math.max(MAX_TIED + 1, leading)));
      for (let i = 0; i < first.length && i <= MAX_TIED; i++) tied.push(first[i]);
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
      if (vote === best && tied.length <= MAX_TIED) tied.push(doc);
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
    // Only a tie larger than the candidates is verified further, and only one small enough; of it,
    // only the lyrics that may hold the whole query.
    if (tied.length <= candidates.length || tied.length > MAX_TIED) tied = [];
    else tied = holdingEvery(tied.sort((a, b) => a - b), unread);
    return { candidates, keys: lists.length, tied, unread: unread.length > 0 };
  }

  /** A key's vote: idf in eighths, at least 1. */
  private weight(list: { length: number }): number {
    return Math.max(1, Math.round(8 * Math.log(1 + this.docs / list.length)));
  }
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

export interface Candidate {
  doc: number;
  vote: number;
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

/**
 * An answer's similarity shared with the answers that account for the query at least as well (as
 * many characters or more, and as long a passage or longer): it is divided by their number, itself
 * included. A line unique to one song keeps its 100; a line two songs hold gives each 50, one that
 * twenty hold 5 each (at least twenty: only the best-voted candidates are verified); an answer
 * behind such a group is divided by the group and itself, so similarities still fall along the
 * ranking. The text is lyrics either way (`matched_chars`, `longest_match`); which song it quotes
 * is that uncertain. The ranking itself is by the undivided evidence (rank). Returns `hits`.
 */
export function shareEvidence(hits: FingerprintHit[]): FingerprintHit[] {
  const evidence = hits.map((h) => ({ covered: h.covered, longest: h.longest }));
  for (const h of hits) {
    let atLeastAsGood = 0;
    for (const e of evidence) if (e.covered >= h.covered && e.longest >= h.longest) atLeastAsGood++;
    h.similarity /= atLeastAsGood;
  }
  return hits;
}

/**
 * Answers by similarity, best first; those within TIE_WINDOW points (or TIE_CHARS characters covered) of the best by characters covered plus longest passage
 * (then longest passage); answers equal on both (a quoted line that several songs share) by
 * popularity. Only the first `limit` places are ranked by popularity (the rest stay by evidence,
 * then track): a popularity is a catalog read per recording, and a shared line can bring hundreds
 * of equal answers of which only a page is shown.
 */
export function rank(hits: FingerprintHit[], popularityOf: (commontrack: number, indexed: number) => number = () => 0, limit = Infinity): FingerprintHit[] {
  if (hits.length === 0) return hits;
  const bestSimilarity = Math.max(...hits.map((h) => h.similarity));
  const bestCovered = Math.max(...hits.map((h) => h.covered));
  const near = (h: FingerprintHit) => bestSimilarity - h.similarity <= TIE_WINDOW || bestCovered - h.covered <= TIE_CHARS;
  const evidence = (a: FingerprintHit, b: FingerprintHit): number => {
    const na = near(a);
    if (na !== near(b)) return na ? -1 : 1;
    // Near the best, the characters accounted for and the longest passage count alike: a few
    // characters more coverage made of pieces does not beat one passage as long as the text.
    return na ? b.covered + b.longest - (a.covered + a.longest) || b.longest - a.longest : b.similarity - a.similarity || b.longest - a.longest;
  };
  hits.sort((a, b) => evidence(a, b) || a.track - b.track);
  // Each run of equal evidence that reaches into the first `limit` places, by popularity.
  for (let start = 0; start < Math.min(limit, hits.length); ) {
    let end = start + 1;
    while (end < hits.length && evidence(hits[start], hits[end]) === 0) end++;
    if (end - start > 1) {
      const group = hits.slice(start, end).map((h) => ({ h, popularity: popularityOf(h.commontrack, h.track) }));
      group.sort((a, b) => b.popularity - a.popularity || a.h.track - b.h.track);
      for (let i = 0; i < group.length; i++) hits[start + i] = group[i].h;
    }
    start = end;
  }
  return hits;
}
