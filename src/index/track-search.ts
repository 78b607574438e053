/**
 * track.search over the text index (docs/index.md): each word of a q* parameter is a clause that
 * matches any of the parameter's fields; all clauses must match; filters and sorts read the
 * per-track columns; relevance is the field-weighted idf of the matched words.
 */
import { normalizeName, normalizeText, wordsOf } from './normalize.js';
import { FIELD, FLAG } from './terms.js';
import { TopK } from './topk.js';
import { DeadlineError } from './deadline.js';
import { intersect, union, weightAt, type Clause } from './posting-ops.js';
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
  const matched = clauses.length ? intersect(clauses, deadline) : undefined;
  const n = matched ? matched.docs.length : ix.track.id.length;
  const top = new TopK(q.offset + q.limit);
  const groups = q.groupCommontrack ? new Map<number, { doc: number; score: number }>() : undefined;
  let available = 0;
  let floor = top.floor;
  for (let i = 0; i < n; i++) {
    if ((i & 0xffff) === 0 && Date.now() > deadline) throw new DeadlineError();
    const doc = matched ? matched.docs[i] : i;
    if (!passes(ix, doc, q)) continue;
    const score = sortKey(ix, doc, q, matched ? weightAt(matched, i) : 0);
    if (groups) {
      const g = groups.get(ix.track.common[doc]);
      if (!g || score > g.score) groups.set(ix.track.common[doc], { doc, score });
      continue;
    }
    available++;
    if (score >= floor) {
      top.push(doc, score);
      floor = top.floor;
    }
  }
  if (groups) {
    available = groups.size;
    for (const { doc, score } of groups.values()) top.push(doc, score);
  }
  return { ids: top.sorted().slice(q.offset).map((doc) => ix.track.id[doc]), available };
}

/** One clause per word of `text`: the word in any of `fields`. */
function wordClauses(ix: TextIndex, fields: readonly string[], text: string): Clause[] {
  const nameWords = wordsOf(normalizeName(text));
  const textWords = wordsOf(normalizeText(text));
  const aligned = nameWords.length === textWords.length;
  const clauses: Clause[] = [];
  for (let k = 0; k < textWords.length; k++) {
    let clause: Clause | undefined;
    for (const field of fields) {
      const word = field === FIELD.lyrics || !aligned ? textWords[k] : nameWords[k];
      const list = ix.list(ix.trackPostings, field, word);
      if (list.length === 0) continue;
      const weight = FIELD_WEIGHT[field] * Math.log(1 + ix.track.id.length / list.length);
      clause = clause ? union(clause, list, weight) : { docs: list, weights: weight };
    }
    clauses.push(clause ?? { docs: new Uint32Array(0), weights: 0 });
  }
  return clauses;
}

function passes(ix: TextIndex, doc: number, q: TrackQuery): boolean {
  const t = ix.track;
  const flags = t.flags[doc];
  if (q.artistId !== undefined && t.artist[doc] !== q.artistId) return false;
  if (q.genreId !== undefined && t.genre1[doc] !== q.genreId && t.genre2[doc] !== q.genreId) return false;
  if (q.language !== undefined && t.lang[doc] !== q.language) return false;
  if (q.hasLyrics && !(flags & FLAG.lyrics)) return false;
  if (q.hasSubtitles && !(flags & FLAG.subtitles)) return false;
  if (q.hasRichsync && !(flags & FLAG.richsync)) return false;
  if (q.hasAnalysis !== undefined && Boolean(flags & FLAG.analysis) !== q.hasAnalysis) return false;
  if (q.instrumental !== undefined && Boolean(flags & FLAG.instrumental) !== q.instrumental) return false;
  if (q.releaseMin !== undefined && t.release[doc] < q.releaseMin) return false;
  if (q.releaseMax !== undefined && (t.release[doc] === 0 || t.release[doc] > q.releaseMax)) return false;
  return true;
}

/**
 * One number ordering results: the requested sorts (artist rating, then track rating, then
 * release date), then relevance, then popularity. Every part has a fixed range, so they stack.
 */
function sortKey(ix: TextIndex, doc: number, q: TrackQuery, relevance: number): number {
  const t = ix.track;
  const dir = (order: Order | undefined, v: number, max: number) => (order === 'asc' ? max - v : order === 'desc' ? v : 0);
  let key = dir(q.sortArtistRating, t.artistRating[doc], 100);
  key = key * 101 + dir(q.sortTrackRating, t.rating[doc], 100);
  key = key * 1e8 + dir(q.sortReleaseDate, t.release[doc], 99_999_999);
  return key * 1e4 + Math.min(relevance, 99) * 100 + t.rating[doc] / 1.01;
}
