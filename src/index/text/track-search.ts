/**
 * track.search over the text index (docs/index.md): each word of a q* parameter is a clause that
 * matches any of the parameter's fields; all clauses must match; filters and sorts read the
 * per-track columns; relevance is the field-weighted idf of the matched words.
 */
import { kernel, pastDeadline, weightAt, type Clause, type TopK } from '../kernel/kernel.js';
import { FIELD, FLAG } from './terms.js';
import type { TextIndex } from './text-index.js';

export type WordParam = 'q' | 'q_track' | 'q_artist' | 'q_lyrics' | 'q_track_artist' | 'q_writer';
export type Order = 'asc' | 'desc';

export interface TrackQuery {
  words: Partial<Record<WordParam, string>>;
  artistId?: number;
  genreId?: number;
  /** Packed language (terms.ts packLanguage). */
  language?: number;
  hasLyrics?: boolean;
  hasSubtitles?: boolean;
  hasRichsync?: boolean;
  /** true: only with analysis; false: only without. */
  hasAnalysis?: boolean;
  instrumental?: boolean;
  releaseMin?: number;
  releaseMax?: number;
  sortArtistRating?: Order;
  sortTrackRating?: Order;
  sortReleaseDate?: Order;
  groupCommontrack?: boolean;
  offset: number;
  limit: number;
}

export interface SearchResult {
  /** Track or artist ids of the requested page, best first. */
  ids: number[];
  available: number;
}

/** Fields each word parameter searches (the public API's meaning of each). */
const PARAM_FIELDS: Record<WordParam, readonly string[]> = {
  q: [FIELD.title, FIELD.artist, FIELD.lyrics],
  q_track: [FIELD.title],
  q_artist: [FIELD.artist],
  q_lyrics: [FIELD.lyrics],
  q_track_artist: [FIELD.title, FIELD.artist],
  q_writer: [FIELD.writer],
};
/** Relevance weight of a word found in each field. */
const FIELD_WEIGHT: Record<string, number> = { t: 3, a: 2, l: 1, w: 1.5 };

export function searchTracks(ix: TextIndex, q: TrackQuery, deadline: number): SearchResult {
  const clauses: Clause[] = [];
  for (const [param, text] of Object.entries(q.words) as [WordParam, string][]) {
    for (const clause of wordClauses(ix, PARAM_FIELDS[param], text)) clauses.push(clause);
  }
  const matched = clauses.length ? kernel.intersect(clauses, deadline) : undefined;
  const n = matched ? matched.docs.length : ix.track.id.length;
  const docAt = matched ? (i: number) => matched.docs[i] : (i: number) => i;
  const relevanceAt = matched ? (i: number) => weightAt(matched, i) : () => 0;
  const passes = filterOf(ix, q);
  const score = scorerOf(ix, q);
  const top = kernel.topK(q.offset + q.limit);
  let available = 0;
  if (q.groupCommontrack) {
    const groups = new Map<number, { doc: number; score: number }>();
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0 && Date.now() > deadline) throw pastDeadline();
      const doc = docAt(i);
      if (passes && !passes(doc)) continue;
      const s = score(doc, relevanceAt(i));
      const g = groups.get(ix.track.common[doc]);
      if (!g || s > g.score) groups.set(ix.track.common[doc], { doc, score: s });
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
  return { ids: top.sorted().slice(q.offset).map((doc) => ix.track.id[doc]), available };
}

/** Tracks whose lyrics hold the rarest word of a text (the smallest a q_lyrics search's matches can be). */
export function rarestLyricsWord(ix: TextIndex, text: string): number {
  let rarest = Infinity;
  for (const word of kernel.wordsOf(kernel.normalizeText(text))) rarest = Math.min(rarest, ix.list(ix.trackPostings, FIELD.lyrics, word).length);
  return rarest === Infinity ? 0 : rarest;
}

/**
 * Of `tracks`, those whose lyrics hold every one of `words` (normalised words), in the order given: a
 * membership test per word in its posting list, rarest word first. The tracks are looked up in
 * ascending order, so each search (the track's ordinal, then its place in each list) starts where the
 * previous one ended, and from an interpolated guess (kernel.seek, PackedList.seek) instead of galloping
 * from the start of a list of up to a million entries.
 */
export function tracksHoldingWords(ix: TextIndex, tracks: readonly number[], words: readonly string[]): number[] {
  const lists = [...new Set(words)].map((w) => ix.list(ix.trackPostings, FIELD.lyrics, w)).sort((a, b) => a.length - b.length);
  if (lists.some((l) => l.length === 0)) return [];
  const ids = ix.track.id;
  const ascending = tracks.map((_, i) => i).sort((a, b) => tracks[a] - tracks[b]);
  const holds = new Uint8Array(tracks.length);
  /** Per list, a position at or before the next document's (documents come in ascending order). */
  const from = new Int32Array(lists.length);
  let at = 0;
  for (const i of ascending) {
    at = kernel.seek(ids, tracks[i], at);
    if (at >= ids.length) break;
    if (ids[at] !== tracks[i]) continue;
    let all = 1;
    for (let k = 0; k < lists.length && all; k++) {
      const list = lists[k];
      const p = (from[k] = list.seek(at, from[k]));
      if (p >= list.length || list.at(p) !== at) all = 0;
    }
    holds[i] = all;
  }
  return tracks.filter((_, i) => holds[i] === 1);
}

/** One clause per word of `text`: the word in any of `fields`. */
function wordClauses(ix: TextIndex, fields: readonly string[], text: string): Clause[] {
  const nameWords = kernel.wordsOf(kernel.normalizeName(text));
  const textWords = kernel.wordsOf(kernel.normalizeText(text));
  const aligned = nameWords.length === textWords.length;
  const clauses: Clause[] = [];
  for (let k = 0; k < textWords.length; k++) {
    let clause: Clause | undefined;
    for (const field of fields) {
      const word = field === FIELD.lyrics || !aligned ? textWords[k] : nameWords[k];
      const list = ix.list(ix.trackPostings, field, word);
      if (list.length === 0) continue;
      const weight = FIELD_WEIGHT[field] * Math.log(1 + ix.track.id.length / list.length);
      clause = clause ? kernel.union(clause, list, weight) : { docs: list, weights: weight };
    }
    clauses.push(clause ?? { docs: new Uint32Array(0), weights: 0 });
  }
  return clauses;
}

/** The query's filters as one predicate over documents, or undefined when it has none. */
function filterOf(ix: TextIndex, q: TrackQuery): ((doc: number) => boolean) | undefined {
  const t = ix.track;
  const tests: ((doc: number) => boolean)[] = [];
  const { artistId, genreId, language, hasAnalysis, instrumental, releaseMin, releaseMax } = q;
  if (artistId !== undefined) tests.push((doc) => t.artist[doc] === artistId);
  if (genreId !== undefined) tests.push((doc) => t.genre1[doc] === genreId || t.genre2[doc] === genreId);
  if (language !== undefined) tests.push((doc) => t.lang[doc] === language);
  // Flags every result must have, and the flags whose presence must equal the query's wish.
  let required = 0;
  if (q.hasLyrics) required |= FLAG.lyrics;
  if (q.hasSubtitles) required |= FLAG.subtitles;
  if (q.hasRichsync) required |= FLAG.richsync;
  if (required) tests.push((doc) => (t.flags[doc] & required) === required);
  if (hasAnalysis !== undefined) tests.push((doc) => Boolean(t.flags[doc] & FLAG.analysis) === hasAnalysis);
  if (instrumental !== undefined) tests.push((doc) => Boolean(t.flags[doc] & FLAG.instrumental) === instrumental);
  if (releaseMin !== undefined) tests.push((doc) => t.release[doc] >= releaseMin);
  if (releaseMax !== undefined) tests.push((doc) => t.release[doc] !== 0 && t.release[doc] <= releaseMax);
  if (tests.length === 0) return undefined;
  if (tests.length === 1) return tests[0];
  return (doc) => tests.every((test) => test(doc));
}

/**
 * A YYYYMMDD date as a smaller number that orders like it: months 0–12 of days 0–31 (0 = unknown,
 * as in 20080000 for "2008").
 */
const releaseRank = (yyyymmdd: number): number => Math.floor(yyyymmdd / 10_000) * 416 + (Math.floor(yyyymmdd / 100) % 100) * 32 + (yyyymmdd % 100);
const RELEASE_SPAN = releaseRank(99_991_231);

/**
 * One number ordering results: the requested sorts (artist rating, then track rating, then
 * release date), then relevance, then popularity. Every part has a fixed range, so they stack; the
 * sorts' part stays under 2^53 / 10^4 so that relevance keeps its resolution beneath it.
 */
function scorerOf(ix: TextIndex, q: TrackQuery): (doc: number, relevance: number) => number {
  const t = ix.track;
  const base = (doc: number, relevance: number) => Math.min(relevance, 99) * 100 + t.rating[doc] / 1.01;
  if (!q.sortArtistRating && !q.sortTrackRating && !q.sortReleaseDate) return base;
  const dir = (order: Order | undefined, v: number, max: number) => (order === 'asc' ? max - v : order === 'desc' ? v : 0);
  return (doc, relevance) => {
    let key = dir(q.sortArtistRating, t.artistRating[doc], 100);
    key = key * 101 + dir(q.sortTrackRating, t.rating[doc], 100);
    key = key * (RELEASE_SPAN + 1) + dir(q.sortReleaseDate, releaseRank(t.release[doc]), RELEASE_SPAN);
    return key * 1e4 + base(doc, relevance);
  };
}
