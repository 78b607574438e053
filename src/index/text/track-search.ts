/**
 * track.search over the text index (docs/index.md): each word of a q* parameter is a clause that
 * matches any of the parameter's fields; all clauses must match; filters and sorts read the
 * per-track columns; relevance is the field-weighted idf of the matched words.
 */
import { kernel, type Clause, type Order, type TrackRanking } from '../kernel/kernel.js';
import { FIELD, FLAG } from './terms.js';
import type { TextIndex } from './text-index.js';

export type WordParam = 'q' | 'q_track' | 'q_artist' | 'q_lyrics' | 'q_track_artist' | 'q_writer';
export type { Order } from '../kernel/kernel.js';

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
  const matched = clauses.length ? ix.kernel.intersect(clauses, deadline) : undefined;
  const ranking: TrackRanking = {
    ...q,
    flagsAll: (q.hasLyrics ? FLAG.lyrics : 0) | (q.hasSubtitles ? FLAG.subtitles : 0) | (q.hasRichsync ? FLAG.richsync : 0),
    flagsEqual: [
      ...(q.hasAnalysis === undefined ? [] : [{ mask: FLAG.analysis, present: q.hasAnalysis }]),
      ...(q.instrumental === undefined ? [] : [{ mask: FLAG.instrumental, present: q.instrumental }]),
    ],
    groupCommontrack: Boolean(q.groupCommontrack),
    count: q.offset + q.limit,
  };
  const { docs, available } = ix.kernel.rankTracks(ix.track, matched, ranking, deadline);
  return { ids: docs.slice(q.offset).map((doc) => ix.track.id[doc]), available };
}

/** Tracks whose lyrics hold the rarest word of a text (the smallest a q_lyrics search's matches can be). */
export function rarestLyricsWord(ix: TextIndex, text: string): number {
  let rarest = Infinity;
  for (const word of kernel.wordsOf(kernel.normalizeText(text))) rarest = Math.min(rarest, ix.list(ix.trackPostings, FIELD.lyrics, word).length);
  return rarest === Infinity ? 0 : rarest;
}

/**
 * Of `tracks`, those whose lyrics hold every one of `words` (normalised words), in the order given:
 * the tracks' ordinals, found in ascending order (each search starts where the previous one ended,
 * from an interpolated guess: kernel.seek), then a membership test in each word's posting list,
 * rarest word first (the kernel's holdingEvery: each seek goes on from the last, finding the list's
 * block first).
 */
export function tracksHoldingWords(ix: TextIndex, tracks: readonly number[], words: readonly string[]): number[] {
  const lists = [...new Set(words)].map((w) => ix.list(ix.trackPostings, FIELD.lyrics, w));
  if (lists.some((l) => l.length === 0)) return [];
  const ids = ix.track.id;
  /** Each track's ordinal, set in ascending order (so the ordinals are too). */
  const ordinalOf = new Map<number, number>();
  let at = 0;
  for (const track of [...tracks].sort((a, b) => a - b)) {
    at = kernel.seek(ids, track, at);
    if (at >= ids.length) break;
    if (ids[at] === track) ordinalOf.set(track, at);
  }
  const held = new Set(ix.kernel.holdingEvery([...ordinalOf.values()], lists));
  return tracks.filter((track) => held.has(ordinalOf.get(track) ?? -1));
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
