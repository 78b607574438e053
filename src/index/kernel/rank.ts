/**
 * track.search's scoring loop (text/track-search.ts says what a query means): over the documents a
 * query's words matched (or every track), the filters on the per-track columns, one score per
 * document ordering the results, and the best page (one track per recording when grouping). This is
 * the TypeScript reference; native-index/src/rank.cc has the same loop in C++.
 */
import { pastDeadline } from './deadline.js';
import { weightAt, type Matched } from './posting-ops.js';
import { TopK } from './topk.js';

/** The per-track columns the loop reads (text index ordinals). */
export interface TrackColumns {
  artist: Uint32Array;
  common: Uint32Array;
  genre1: Uint32Array;
  genre2: Uint32Array;
  release: Uint32Array;
  lang: Uint16Array;
  flags: Uint8Array;
  rating: Uint8Array;
  artistRating: Uint8Array;
}

export type Order = 'asc' | 'desc';

/** What a query asks of the loop: filters, sorts, grouping and how many results. */
export interface TrackRanking {
  artistId?: number;
  genreId?: number;
  language?: number;
  /** Flags every result must have (a mask)… */
  flagsAll: number;
  /** …and flags whose presence must be as given (a mask each). */
  flagsEqual: { mask: number; present: boolean }[];
  releaseMin?: number;
  releaseMax?: number;
  sortArtistRating?: Order;
  sortTrackRating?: Order;
  sortReleaseDate?: Order;
  groupCommontrack: boolean;
  /** Results wanted: the page's end (offset + limit). */
  count: number;
}

/** The best documents, best first, and how many passed the filters (recordings, when grouping). */
export interface Ranked {
  docs: number[];
  available: number;
}

/**
 * A YYYYMMDD date as a smaller number that orders like it: months 0–12 of days 0–31 (0 = unknown,
 * as in 20080000 for "2008").
 */
const releaseRank = (yyyymmdd: number): number => Math.floor(yyyymmdd / 10_000) * 416 + (Math.floor(yyyymmdd / 100) % 100) * 32 + (yyyymmdd % 100);
const RELEASE_SPAN = releaseRank(99_991_231);

/** The ranking of `matched` (undefined: every one of the `columns`' tracks); throws past `deadline`. */
export function rankTracks(t: TrackColumns, matched: Matched | undefined, r: TrackRanking, deadline: number): Ranked {
  const n = matched ? matched.docs.length : t.artist.length;
  const docAt = matched ? (i: number) => matched.docs[i] : (i: number) => i;
  const relevanceAt = matched ? (i: number) => weightAt(matched, i) : () => 0;
  const passes = filterOf(t, r);
  const score = scorerOf(t, r);
  const top = new TopK(r.count);
  let available = 0;
  if (r.groupCommontrack) {
    const groups = new Map<number, { doc: number; score: number }>();
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0 && Date.now() > deadline) throw pastDeadline();
      const doc = docAt(i);
      if (passes && !passes(doc)) continue;
      const s = score(doc, relevanceAt(i));
      const g = groups.get(t.common[doc]);
      if (!g || s > g.score) groups.set(t.common[doc], { doc, score: s });
    }
    available = groups.size;
    for (const { doc, score: s } of groups.values()) top.push(doc, s);
  } else {
    // The hot loop of common words (hundreds of thousands of matches): a document is scored only
    // when it passes the filters, and pushed only when it can enter the page.
    let floor = top.floor;
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0 && Date.now() > deadline) throw pastDeadline();
      const doc = docAt(i);
      if (passes && !passes(doc)) continue;
      available++;
      const s = score(doc, relevanceAt(i));
      if (s >= floor) {
        top.push(doc, s);
        floor = top.floor;
      }
    }
  }
  return { docs: top.sorted(), available };
}

/** The filters as one predicate over documents, or undefined when there are none. */
function filterOf(t: TrackColumns, r: TrackRanking): ((doc: number) => boolean) | undefined {
  const tests: ((doc: number) => boolean)[] = [];
  const { artistId, genreId, language, flagsAll, releaseMin, releaseMax } = r;
  if (artistId !== undefined) tests.push((doc) => t.artist[doc] === artistId);
  if (genreId !== undefined) tests.push((doc) => t.genre1[doc] === genreId || t.genre2[doc] === genreId);
  if (language !== undefined) tests.push((doc) => t.lang[doc] === language);
  if (flagsAll) tests.push((doc) => (t.flags[doc] & flagsAll) === flagsAll);
  for (const { mask, present } of r.flagsEqual) tests.push((doc) => Boolean(t.flags[doc] & mask) === present);
  if (releaseMin !== undefined) tests.push((doc) => t.release[doc] >= releaseMin);
  if (releaseMax !== undefined) tests.push((doc) => t.release[doc] !== 0 && t.release[doc] <= releaseMax);
  if (tests.length === 0) return undefined;
  if (tests.length === 1) return tests[0];
  return (doc) => tests.every((test) => test(doc));
}

/**
 * One number ordering results: the requested sorts (artist rating, then track rating, then
 * release date), then relevance, then popularity. Every part has a fixed range, so they stack; the
 * sorts' part stays under 2^53 / 10^4 so that relevance keeps its resolution beneath it.
 */
function scorerOf(t: TrackColumns, r: TrackRanking): (doc: number, relevance: number) => number {
  const base = (doc: number, relevance: number) => Math.min(relevance, 99) * 100 + t.rating[doc] / 1.01;
  if (!r.sortArtistRating && !r.sortTrackRating && !r.sortReleaseDate) return base;
  const dir = (order: Order | undefined, v: number, max: number) => (order === 'asc' ? max - v : order === 'desc' ? v : 0);
  return (doc, relevance) => {
    let key = dir(r.sortArtistRating, t.artistRating[doc], 100);
    key = key * 101 + dir(r.sortTrackRating, t.rating[doc], 100);
    key = key * (RELEASE_SPAN + 1) + dir(r.sortReleaseDate, releaseRank(t.release[doc]), RELEASE_SPAN);
    return key * 1e4 + base(doc, relevance);
  };
}
