/**
 * Search side of the text index (docs/index.md), run inside a pool worker: track.search with its
 * word clauses, filters, sorts and grouping; artist.search over every name variant; and the
 * matcher's precise → fuzzy → alias stages.
 */
import type { Catalog } from '../catalog/store.js';
import type { TrackRecord } from '../catalog/records.js';
import { column, type LoadedIndex } from './layout.js';
import { DictionaryView } from './dictionary.js';
import { PostingsView } from './postings.js';
import { normalizeName, normalizeText, wordsOf } from './normalize.js';
import { artistCore, looseSimilarity, titleCore, trigramsOf } from './names.js';
import { FIELD, FLAG, pairKey, term } from './terms.js';
import { TopK } from './topk.js';
import { DeadlineError } from './deadline.js';

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

export interface ArtistQuery {
  name?: string;
  artistId?: number;
  offset: number;
  limit: number;
}

export interface MatchQuery {
  title: string;
  artist: string;
}

export interface SearchResult {
  /** Track or artist ids of the requested page, best first. */
  ids: number[];
  available: number;
}

export type MatchMode = 'precise' | 'fuzzy' | 'alias';
export interface MatchResult {
  track?: number;
  mode?: MatchMode;
  confidence?: number;
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

/** A word clause's matching documents, ascending, with the relevance each earns. */
interface Clause {
  docs: Uint32Array;
  weights: Float32Array;
}

/** Fuzzy matcher: candidate titles read, and the bars a match must clear. */
const MATCH_CANDIDATES = 200;
const MATCH_GRAM_BUDGET = 60_000;
/** An artist named by more tracks than this is too vague to list them all (the trigram stage runs). */
const MAX_ARTIST_TRACKS = 5000;
const MIN_TITLE = 0.6;
const MIN_ARTIST = 0.5;
const MIN_SCORE = 0.7;

export class TextSearcher {
  private readonly dict: DictionaryView;
  private readonly trackPostings: PostingsView;
  private readonly artistPostings: PostingsView;
  private readonly id: Uint32Array;
  private readonly artist: Uint32Array;
  private readonly common: Uint32Array;
  private readonly genre1: Uint32Array;
  private readonly genre2: Uint32Array;
  private readonly release: Uint32Array;
  private readonly lang: Uint16Array;
  private readonly flags: Uint8Array;
  private readonly rating: Uint8Array;
  private readonly artistRating: Uint8Array;
  private readonly artistIds: Uint32Array;
  private readonly artistRatings: Uint8Array;
  private readonly trackVotes: VoteBoard;
  private readonly artistVotes: VoteBoard;

  constructor(index: LoadedIndex, private readonly catalog: Catalog) {
    this.dict = new DictionaryView(index, 'text-dict');
    this.trackPostings = new PostingsView(index, 'tt');
    this.artistPostings = new PostingsView(index, 'ta');
    const col = (name: string) => column(index, 'text-tracks', name, 'u32');
    this.id = col('id');
    this.artist = col('artist');
    this.common = col('common');
    this.genre1 = col('genre1');
    this.genre2 = col('genre2');
    this.release = col('release');
    this.lang = column(index, 'text-tracks', 'lang', 'u16');
    this.flags = column(index, 'text-tracks', 'flags', 'u8');
    this.rating = column(index, 'text-tracks', 'rating', 'u8');
    this.artistRating = column(index, 'text-tracks', 'artistRating', 'u8');
    this.artistIds = column(index, 'text-artists', 'id', 'u32');
    this.artistRatings = column(index, 'text-artists', 'rating', 'u8');
    this.trackVotes = new VoteBoard(this.id.length);
    this.artistVotes = new VoteBoard(this.artistIds.length);
  }

  // ---- track.search -------------------------------------------------------------------------

  tracks(q: TrackQuery, deadline: number): SearchResult {
    const clauses: Clause[] = [];
    for (const [param, text] of Object.entries(q.words) as [WordParam, string][]) {
      for (const clause of this.wordClauses(PARAM_FIELDS[param], text)) clauses.push(clause);
    }
    const matched = clauses.length ? intersect(clauses, deadline) : undefined;
    const n = matched ? matched.docs.length : this.id.length;
    const top = new TopK(q.offset + q.limit);
    const groups = q.groupCommontrack ? new Map<number, { doc: number; score: number }>() : undefined;
    let available = 0;
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0 && Date.now() > deadline) throw new DeadlineError();
      const doc = matched ? matched.docs[i] : i;
      if (!this.passes(doc, q)) continue;
      const score = this.sortKey(doc, q, matched ? matched.weights[i] : 0);
      if (groups) {
        const g = groups.get(this.common[doc]);
        if (!g || score > g.score) groups.set(this.common[doc], { doc, score });
        continue;
      }
      available++;
      if (score >= top.floor) top.push(doc, score);
    }
    if (groups) {
      available = groups.size;
      for (const { doc, score } of groups.values()) top.push(doc, score);
    }
    return { ids: top.sorted().slice(q.offset).map((doc) => this.id[doc]), available };
  }

  /** One clause per word of `text`: the word in any of `fields`. */
  private wordClauses(fields: readonly string[], text: string): Clause[] {
    const nameWords = wordsOf(normalizeName(text));
    const textWords = wordsOf(normalizeText(text));
    const aligned = nameWords.length === textWords.length;
    const clauses: Clause[] = [];
    for (let k = 0; k < textWords.length; k++) {
      let clause: Clause | undefined;
      for (const field of fields) {
        const word = field === FIELD.lyrics || !aligned ? textWords[k] : nameWords[k];
        const list = this.list(this.trackPostings, term(field, word));
        if (list.length === 0) continue;
        const weight = FIELD_WEIGHT[field] * Math.log(1 + this.id.length / list.length);
        clause = clause ? union(clause, list, weight) : { docs: list, weights: new Float32Array(list.length).fill(weight) };
      }
      clauses.push(clause ?? { docs: new Uint32Array(0), weights: new Float32Array(0) });
    }
    return clauses;
  }

  private passes(doc: number, q: TrackQuery): boolean {
    const flags = this.flags[doc];
    if (q.artistId !== undefined && this.artist[doc] !== q.artistId) return false;
    if (q.genreId !== undefined && this.genre1[doc] !== q.genreId && this.genre2[doc] !== q.genreId) return false;
    if (q.language !== undefined && this.lang[doc] !== q.language) return false;
    if (q.hasLyrics && !(flags & FLAG.lyrics)) return false;
    if (q.hasSubtitles && !(flags & FLAG.subtitles)) return false;
    if (q.hasRichsync && !(flags & FLAG.richsync)) return false;
    if (q.hasAnalysis !== undefined && Boolean(flags & FLAG.analysis) !== q.hasAnalysis) return false;
    if (q.instrumental !== undefined && Boolean(flags & FLAG.instrumental) !== q.instrumental) return false;
    if (q.releaseMin !== undefined && this.release[doc] < q.releaseMin) return false;
    if (q.releaseMax !== undefined && (this.release[doc] === 0 || this.release[doc] > q.releaseMax)) return false;
    return true;
  }

  /**
   * One number ordering results: the requested sorts (artist rating, then track rating, then
   * release date), then relevance, then popularity. Every part has a fixed range, so they stack.
   */
  private sortKey(doc: number, q: TrackQuery, relevance: number): number {
    const dir = (order: Order | undefined, v: number, max: number) => (order === 'asc' ? max - v : order === 'desc' ? v : 0);
    let key = dir(q.sortArtistRating, this.artistRating[doc], 100);
    key = key * 101 + dir(q.sortTrackRating, this.rating[doc], 100);
    key = key * 1e8 + dir(q.sortReleaseDate, this.release[doc], 99_999_999);
    return key * 1e4 + Math.min(relevance, 99) * 100 + this.rating[doc] / 1.01;
  }

  // ---- artist.search ------------------------------------------------------------------------

  artists(q: ArtistQuery, deadline: number): SearchResult {
    const n = this.artistIds.length;
    const top = new TopK(q.offset + q.limit);
    let available = 0;
    const consider = (doc: number, relevance: number) => {
      if (q.artistId !== undefined && this.artistIds[doc] !== q.artistId) return;
      available++;
      top.push(doc, relevance * 1000 + this.artistRatings[doc]);
    };
    const name = q.name ? normalizeName(q.name) : '';
    if (!name) {
      for (let doc = 0; doc < n; doc++) consider(doc, 0);
    } else {
      const exact = this.list(this.artistPostings, term(FIELD.artistExact, name));
      const clauses = wordsOf(name).map((w) => {
        const list = this.list(this.artistPostings, term(FIELD.artistWord, w));
        return { docs: list, weights: new Float32Array(list.length).fill(Math.log(1 + n / Math.max(1, list.length))) };
      });
      const matched = intersect(clauses, deadline);
      if (matched.docs.length > 0) {
        for (let i = 0; i < matched.docs.length; i++) {
          const doc = matched.docs[i];
          consider(doc, matched.weights[i] + (contains(exact, doc) ? 100 : 0));
        }
      } else {
        // No artist has every word: fall back to names sharing most of the query's trigrams.
        const board = this.artistVotes;
        board.add(this.gramLists(this.artistPostings, FIELD.artistGram, trigramsOf(name)), MATCH_GRAM_BUDGET, deadline);
        for (const doc of board.top(Infinity, 0.5)) consider(doc, board.share(doc));
        board.clear();
      }
    }
    return { ids: top.sorted().slice(q.offset).map((doc) => this.artistIds[doc]), available };
  }

  // ---- matcher ------------------------------------------------------------------------------

  match(q: MatchQuery, deadline: number): MatchResult {
    const core = titleCore(q.title);
    const lead = artistCore(q.artist);
    const full = normalizeName(q.artist);
    const exactTitle = normalizeName(q.title);

    const precise = this.bestOf(this.pairDocs(FIELD.precise, core, [lead, full]), exactTitle);
    if (precise !== undefined) return { track: precise, mode: 'precise', confidence: 1000 };

    const fuzzy = this.fuzzy(core, lead, deadline);
    if (fuzzy.main) return { track: fuzzy.main.track, mode: 'fuzzy', confidence: fuzzy.main.confidence };

    const alias = this.bestOf(this.pairDocs(FIELD.alias, core, [lead, full]), exactTitle);
    if (alias !== undefined) return { track: alias, mode: 'alias', confidence: 950 };
    if (fuzzy.alias) return { track: fuzzy.alias.track, mode: 'alias', confidence: fuzzy.alias.confidence };
    return {};
  }

  private pairDocs(field: string, core: string, artists: string[]): number[] {
    const docs = new Set<number>();
    for (const a of new Set(artists)) for (const d of this.list(this.trackPostings, term(field, pairKey(core, a)))) docs.add(d);
    return [...docs];
  }

  /** Among tracks of one title and artist: the exact title, then the original recording, then the most popular. */
  private bestOf(docs: number[], exactTitle: string): number | undefined {
    let best: number | undefined;
    let bestKey = -1;
    for (const doc of docs) {
      const t = this.catalog.getTrack(this.id[doc]);
      if (!t) continue;
      const key = (normalizeName(t.track_name) === exactTitle ? 2000 : 0) + (t.track_id === t.commontrack_id ? 1000 : 0) + t.track_rating;
      if (key > bestKey) {
        bestKey = key;
        best = t.track_id;
      }
    }
    return best;
  }

  /**
   * Fuzzy stage. Candidates: first the tracks of the artist the query names (all its words known:
   * usually a few dozen tracks); when none of them is close enough, the tracks sharing most of the
   * title's trigrams (and the artist's words). Each is compared by title and artist similarity.
   * `main` matched the artist's own name, `alias` one of its aliases or translations.
   */
  private fuzzy(core: string, lead: string, deadline: number): { main?: Scored; alias?: Scored } {
    const board = this.trackVotes;
    board.add(this.gramLists(this.trackPostings, FIELD.titleGram, trigramsOf(core)), MATCH_GRAM_BUDGET, deadline);
    // The artist's tracks whose titles share a fair part of the query title's trigrams (of those read).
    const titled = this.artistTracks(lead).filter((doc) => board.share(doc) >= 0.3 * board.readShare);
    const byArtist = this.score(titled, core, lead, deadline);
    if (byArtist.main) {
      board.clear();
      return byArtist;
    }
    for (const w of wordsOf(lead)) {
      const list = this.list(this.trackPostings, term(FIELD.artist, w));
      if (list.length <= MATCH_GRAM_BUDGET) board.bonus(list, 0.5);
    }
    const byTitle = this.score(board.top(MATCH_CANDIDATES, 0.3), core, lead, deadline);
    return { main: byTitle.main, alias: byArtist.alias ?? byTitle.alias };
  }

  /** Tracks whose artist names hold every word of `lead` (none when a word is unknown or too common). */
  private artistTracks(lead: string): number[] {
    const lists = wordsOf(lead).map((w) => this.list(this.trackPostings, term(FIELD.artist, w)));
    if (lists.length === 0 || lists.some((l) => l.length === 0)) return [];
    const docs = intersect(lists.map((l) => ({ docs: l, weights: new Float32Array(l.length) })), Infinity).docs;
    return docs.length <= MAX_ARTIST_TRACKS ? [...docs] : [];
  }

  private score(docs: number[], core: string, lead: string, deadline: number): { main?: Scored; alias?: Scored } {
    let main: Scored | undefined;
    let alias: Scored | undefined;
    for (const doc of docs) {
      if (Date.now() > deadline) throw new DeadlineError();
      const t = this.catalog.getTrack(this.id[doc]);
      if (!t) continue;
      const titleSim = looseSimilarity(core, titleCore(t.track_name));
      if (titleSim < MIN_TITLE) continue;
      const consider = (artistSim: number, current: Scored | undefined): Scored | undefined => {
        const score = 0.55 * titleSim + 0.45 * artistSim;
        if (artistSim < MIN_ARTIST || score < MIN_SCORE) return current;
        const confidence = Math.round(score * 1000);
        return !current || preferred(confidence, t, current) ? { track: t.track_id, confidence, rating: t.track_rating, original: t.track_id === t.commontrack_id } : current;
      };
      const before = main;
      main = consider(looseSimilarity(lead, artistCore(t.artist_name)), main);
      if (main === before) alias = consider(this.aliasSimilarity(lead, t), alias);
    }
    return { main, alias };
  }

  private aliasSimilarity(lead: string, t: TrackRecord): number {
    const a = this.catalog.getArtist(t.artist_id);
    if (!a) return 0;
    let best = 0;
    for (const x of a.artist_alias_list) best = Math.max(best, looseSimilarity(lead, normalizeName(x.artist_alias)));
    for (const x of a.artist_name_translation_list) best = Math.max(best, looseSimilarity(lead, normalizeName(x.artist_name_translation.translation)));
    return best;
  }

  /** Posting lists of the grams the index knows, rarest first. */
  private gramLists(postings: PostingsView, field: string, grams: string[]): { lists: Uint32Array[]; grams: number } {
    const lists = grams.map((g) => this.list(postings, term(field, g))).filter((l) => l.length > 0).sort((a, b) => a.length - b.length);
    return { lists, grams: grams.length };
  }

  private list(postings: PostingsView, t: string): Uint32Array {
    const id = this.dict.lookup(t);
    return id < 0 ? EMPTY : postings.list(id);
  }
}

interface Scored {
  track: number;
  confidence: number;
  rating: number;
  original: boolean;
}

/** A better fuzzy candidate: more confident, then the original recording, then more popular. */
function preferred(confidence: number, t: TrackRecord, current: Scored): boolean {
  if (confidence !== current.confidence) return confidence > current.confidence;
  const original = t.track_id === t.commontrack_id;
  if (original !== current.original) return original;
  return t.track_rating > current.rating;
}

const EMPTY = new Uint32Array(0);

/**
 * Votes per document in a typed array (a Map costs ten times as much per vote), with the list of
 * documents touched so a query resets only those.
 */
class VoteBoard {
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
      if (Date.now() > deadline) throw new DeadlineError();
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
function union(a: Clause, list: Uint32Array, weight: number): Clause {
  const docs = new Uint32Array(a.docs.length + list.length);
  const weights = new Float32Array(docs.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.docs.length || j < list.length) {
    if (j >= list.length || (i < a.docs.length && a.docs[i] < list[j])) {
      docs[n] = a.docs[i];
      weights[n++] = a.weights[i++];
    } else if (i >= a.docs.length || list[j] < a.docs[i]) {
      docs[n] = list[j++];
      weights[n++] = weight;
    } else {
      docs[n] = a.docs[i];
      weights[n++] = a.weights[i++] + weight;
      j++;
    }
  }
  return { docs: docs.subarray(0, n), weights: weights.subarray(0, n) };
}

/** Documents in every clause, their weights summed; smallest clause first, galloping into larger. */
function intersect(clauses: Clause[], deadline: number): Clause {
  const sorted = [...clauses].sort((a, b) => a.docs.length - b.docs.length);
  let acc: Clause = { docs: sorted[0].docs, weights: Float32Array.from(sorted[0].weights) };
  for (let c = 1; c < sorted.length && acc.docs.length > 0; c++) {
    if (Date.now() > deadline) throw new DeadlineError();
    const other = sorted[c];
    const docs = new Uint32Array(acc.docs.length);
    const weights = new Float32Array(acc.docs.length);
    let n = 0;
    let lo = 0;
    for (let i = 0; i < acc.docs.length; i++) {
      const at = lowerBound(other.docs, acc.docs[i], lo);
      if (at < other.docs.length && other.docs[at] === acc.docs[i]) {
        docs[n] = acc.docs[i];
        weights[n++] = acc.weights[i] + other.weights[at];
      }
      lo = at;
    }
    acc = { docs: docs.subarray(0, n), weights: weights.subarray(0, n) };
  }
  return acc;
}

/** First index ≥ lo whose value is ≥ v (galloping, then binary search). */
function lowerBound(a: Uint32Array, v: number, lo: number): number {
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

function contains(list: Uint32Array, doc: number): boolean {
  const at = lowerBound(list, doc, 0);
  return at < list.length && list[at] === doc;
}
