/**
 * Fingerprint search (docs/fingerprint.md), run inside a pool worker:
 *
 * 1. Candidates (the kernel's candidate stage: kernel/votes.ts, and native-index/src/fingerprint.cc with
 *    --engine native): the query's keys (pairs of sampled grams, kernel/grams.ts) vote for the lyrics holding
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
import { kernel as processKernel, FIRST, GRAM, LAST, POSTINGS, holdsEnd, orderMask, pastDeadline, type CandidateStage, type Candidate, type Kernel, type PostingsLimits } from '../kernel/kernel.js';
import { column, type LoadedIndex } from '../store/layout.js';

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
/** Candidates verified per query: at least this many, or 2 × size. */
const MIN_VERIFIED = 16;
/** Verification stops at a candidate with fewer votes than this share of a verified match's. */
const STOP_RATIO = 0.5;
/*
 * The tie walk. An exact excerpt whose every key is a cliché of the catalog (a stock line many songs
 * share, each continuing it differently) ties for the most votes with all of them, and the
 * candidates are only the most popular of those. When fewer than `size` candidates hold the whole
 * query, the rest of the tie is looked at. The candidate stage (tie()) narrows it to the lyrics
 * holding the query's word order (kernel/order.ts: every pair of consecutive words inside the query
 * is in the lyric's sketch), those holding its first and last pairs too first, and of those to the
 * lyrics holding every key the budgets left unread (pairs of grams that follow one another in the
 * query follow one another in such a lyric too); a text of fewer than four words has no word order,
 * and its tie is narrowed by the keys alone when at most MAX_TIED lyrics tie. search() verifies the
 * ones whose lyrics hold the query's words (the text index), in the order byEnds gives, until `size`
 * hold the whole query (reading at most WALK_BEFORE lyrics until one does, and WALK_AFTER after).
 */
/**
 * At most this many lyrics of a tie are read (each is a catalog read and a normalisation: 10–20 µs
 * with the native kernel) before one holds the whole query… Lyrics that differ from the query only
 * in its first or last word (which may be cut, so the word order does not require them) pass the
 * word order, and a stock passage can have dozens of them before its source: measured at 1M tracks,
 * 64 reads found the source of 26 of the 27 excerpts shared with at most 9 other songs; reading the
 * whole tie found all 27, at twice the p99 (the last is not among the 256 lyrics the tie gives the
 * walk: kernel/votes.ts MAX_ORDERED_TIE).
 */
const WALK_BEFORE = 64;
/** …and at most this many more after one does (the other songs holding it). */
const WALK_AFTER = 64;
/** The tie's tracks whose words are looked up at a time, in the order of the walk. */
const WALK_CHUNK = 32;
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
  private readonly stage: CandidateStage;
  private readonly track: Uint32Array;
  private readonly common: Uint32Array;
  /** Each document's word-order sketch (kernel/order.ts). */
  private readonly sketches: Uint32Array;
  private readonly docs: number;
  private readonly kernel: Kernel;

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
    /** The kernel whose candidate stage and verification answer (the process's by default: `--engine`). */
    engine: Kernel = processKernel,
  ) {
    this.kernel = engine;
    this.stage = engine.candidateStage(index, limits);
    this.track = column(index, 'fp-docs', 'track', 'u32');
    this.common = column(index, 'fp-docs', 'common', 'u32');
    this.sketches = column(index, 'fp-docs', 'order', 'u32');
    this.docs = this.track.length;
  }

  /**
   * Tracks of a tie (in the order the candidate stage gave them: its tiers of word order, then
   * popularity) in the order to walk them: first those whose lyrics hold the query's first pair of
   * words and its last pair, by the sketch and by the text index's words both (a pair's bit alone
   * is set by chance in about half of the generated lyrics), then those holding one, then the rest.
   * An end word may be cut in the query, so none is left out.
   */
  private byEnds(tracks: number[], docOf: ReadonlyMap<number, number>, order: Uint32Array, words: readonly string[]): number[] {
    const ends = new Map<number, number>();
    for (const [end, word] of [[FIRST, words[0]], [LAST, words[words.length - 1]]] as const) {
      const withBit = tracks.filter((track) => holdsEnd(this.sketches, docOf.get(track)!, order, end) === 1);
      for (const track of this.holdingWords!(withBit, [word])) ends.set(track, (ends.get(track) ?? 0) + 1);
    }
    return tracks.map((track, i) => ({ track, i, ends: ends.get(track) ?? 0 })).sort((a, b) => b.ends - a.ends || a.i - b.i).map((t) => t.track);
  }

  search(text: string, size: number, deadline: number): FingerprintHit[] {
    const query = this.kernel.normalizeText(text);
    if (query.length < GRAM || this.docs === 0) return [];
    const verified = Math.max(MIN_VERIFIED, 2 * size);
    const { candidates, keys, tied, unread } = this.stage.candidates(query, verified);
    const grams = this.kernel.queryGrams(query);
    const hits: FingerprintHit[] = [];
    /** Similarity of each recording verified (0 when its lyric holds none of the query). */
    const seen = new Map<number, number>();
    /**
     * A lyric's answer, if any. With `passage`, only a lyric holding the whole query as one passage
     * answers (the tie walk's search for its other sources): the others are not compared further,
     * nor counted as verified, so a later stage that finds one among its candidates compares it.
     */
    const verify = (track: number, commontrack: number, passage = false): number => {
      const lyric = this.lyricsOf(track);
      if (passage && lyric !== undefined && !lyric.includes(query)) return 0;
      seen.set(commontrack, 0);
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
    // The candidates tied with more lyrics, and fewer than `size` of them hold the whole query (as
    // one passage: a lyric holding its lines in pieces, elsewhere and in another order, is not its
    // source): the rest of the tie holding the query's word order, those holding its ends first,
    // until `size` do (at most WALK_BEFORE reads until one does and WALK_AFTER after; or the
    // deadline). Only those whose lyrics hold the query's words are read (the first and the last
    // may be cut), and only those holding the query as one passage answer: the rest of the tie holds
    // its words in other places, as the candidates already verified do, with more votes.
    const whole = (h: FingerprintHit | undefined) => h !== undefined && h.longest === query.length;
    let wholes = hits.filter(whole).length;
    const words = tied && this.holdingWords && wholes < size ? this.kernel.wordsOf(query) : [];
    const inner = words.slice(1, -1);
    if (inner.length > 0) {
      const order = orderMask(words);
      const docOf = new Map<number, number>();
      for (const doc of this.stage.tie(order)) if (!seen.has(this.common[doc])) docOf.set(this.track[doc], doc);
      const tracks = [...docOf.keys()];
      const walk = order ? this.byEnds(tracks, docOf, order, words) : tracks;
      /** Lyrics read before one held the whole query, and after. */
      const reads = [0, 0];
      // The inner words are looked up a chunk at a time as the walk goes: it mostly stops long
      // before the end of the tie.
      walking: for (let from = 0; from < walk.length; from += WALK_CHUNK) {
        for (const track of this.holdingWords!(walk.slice(from, from + WALK_CHUNK), inner)) {
          if (Date.now() > deadline) throw pastDeadline();
          if (verify(track, this.common[docOf.get(track)!], true) > 0 && whole(hits.at(-1)) && ++wholes >= size) break walking;
          if (wholes === 0 ? ++reads[0] >= WALK_BEFORE : ++reads[1] >= WALK_AFTER) break walking;
        }
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
        verifyCandidates(this.stage.candidates(query, verified, DEEP).candidates);
      }
    }
    const recordings = new Map<number, Recording>();
    const recording = (commontrack: number, indexed: number): Recording => {
      let r = recordings.get(commontrack);
      if (r === undefined) recordings.set(commontrack, (r = this.recordingOf(commontrack, indexed)));
      return r;
    };
    const top = shareEvidence(rank(hits, (commontrack, indexed) => recording(commontrack, indexed).popularity, size)).slice(0, size);
    for (const hit of top) hit.tracks = [...recording(hit.commontrack, hit.track).tracks];
    return top;
  }
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
