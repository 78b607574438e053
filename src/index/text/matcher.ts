/**
 * The matcher's stages over the text index (docs/index.md): precise (title core + lead artist),
 * fuzzy (the named artist's title-similar tracks, else title trigrams and artist words vote), and
 * alias (the same against the artist's aliases and name translations).
 */
import type { Catalog } from '../../catalog/store.js';
import type { TrackRecord } from '../../catalog/records.js';
import { kernel, pastDeadline, type VoteBoard } from '../kernel/kernel.js';
import { artistCore, looseSimilarity, titleCore, trigramsOf } from './names.js';
import { FIELD, pairKey } from './terms.js';
import type { TextIndex } from './text-index.js';

export interface MatchQuery {
  title: string;
  artist: string;
}

export type MatchMode = 'precise' | 'fuzzy' | 'alias';
export interface MatchResult {
  track?: number;
  mode?: MatchMode;
  confidence?: number;
}

/** Fuzzy matcher: candidate titles read, and the bars a match must clear. */
const MATCH_CANDIDATES = 200;
export const MATCH_GRAM_BUDGET = 60_000;
/** An artist named by more tracks than this is too vague to list them all (the trigram stage runs). */
const MAX_ARTIST_TRACKS = 5000;
const MIN_TITLE = 0.6;
const MIN_ARTIST = 0.5;
const MIN_SCORE = 0.7;

export class Matcher {
  private readonly votes: VoteBoard;

  constructor(
    private readonly ix: TextIndex,
    private readonly catalog: Catalog,
  ) {
    this.votes = kernel.voteBoard(ix.track.id.length);
  }

  /** Every stage; `afterPrecise` when the caller already ran the precise one (preciseMatch). */
  match(q: MatchQuery, deadline: number, afterPrecise = false): MatchResult {
    const names = namesOf(q);
    if (!afterPrecise) {
      const precise = preciseStage(this.ix, this.catalog, names);
      if (precise && precise !== 'unsure') return precise;
    }
    const fuzzy = this.fuzzy(names.core, names.lead, deadline);
    if (fuzzy.main) return { track: fuzzy.main.track, mode: 'fuzzy', confidence: fuzzy.main.confidence };

    const alias = bestOf(this.ix, this.catalog, pairDocs(this.ix, FIELD.alias, names), names.exactTitle);
    if (alias !== undefined) return { track: alias, mode: 'alias', confidence: 950 };
    if (fuzzy.alias) return { track: fuzzy.alias.track, mode: 'alias', confidence: fuzzy.alias.confidence };
    return {};
  }

  /**
   * Fuzzy stage. Candidates: first the tracks of the artist the query names (all its words known:
   * usually a few dozen tracks); when none of them is close enough, the tracks sharing most of the
   * title's trigrams (and the artist's words). Each is compared by title and artist similarity.
   * `main` matched the artist's own name, `alias` one of its aliases or translations.
   */
  private fuzzy(core: string, lead: string, deadline: number): { main?: Scored; alias?: Scored } {
    const board = this.votes;
    try {
      board.add(this.ix.gramLists(this.ix.trackPostings, FIELD.titleGram, trigramsOf(core)), MATCH_GRAM_BUDGET, deadline);
      // The artist's tracks whose titles share a fair part of the query title's trigrams (of those read).
      const titled = this.artistTracks(lead).filter((doc) => board.share(doc) >= 0.3 * board.readShare);
      const byArtist = this.score(titled, core, lead, deadline);
      if (byArtist.main) return byArtist;
      for (const w of kernel.wordsOf(lead)) {
        const list = this.ix.list(this.ix.trackPostings, FIELD.artist, w);
        if (list.length <= MATCH_GRAM_BUDGET) board.bonus(list, 0.5);
      }
      const byTitle = this.score(board.top(MATCH_CANDIDATES, 0.3), core, lead, deadline);
      return { main: byTitle.main, alias: byArtist.alias ?? byTitle.alias };
    } finally {
      // Also when the deadline stopped the stage part-way: the worker's next query starts from an empty board.
      board.clear();
    }
  }

  /** Tracks whose artist names hold every word of `lead` (none when a word is unknown or too common). */
  private artistTracks(lead: string): number[] {
    const lists = kernel.wordsOf(lead).map((w) => this.ix.list(this.ix.trackPostings, FIELD.artist, w));
    if (lists.length === 0 || lists.some((l) => l.length === 0)) return [];
    const docs = this.ix.kernel.intersect(lists.map((l) => ({ docs: l, weights: 0 })), Infinity).docs;
    return docs.length <= MAX_ARTIST_TRACKS ? [...docs] : [];
  }

  private score(docs: number[], core: string, lead: string, deadline: number): { main?: Scored; alias?: Scored } {
    let main: Scored | undefined;
    let alias: Scored | undefined;
    for (const doc of docs) {
      if (Date.now() > deadline) throw pastDeadline();
      const t = this.catalog.getTrack(this.ix.track.id[doc]);
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
    for (const x of a.artist_alias_list) best = Math.max(best, looseSimilarity(lead, kernel.normalizeName(x.artist_alias)));
    for (const x of a.artist_name_translation_list) best = Math.max(best, looseSimilarity(lead, kernel.normalizeName(x.artist_name_translation.translation)));
    return best;
  }
}

interface Names {
  core: string;
  lead: string;
  full: string;
  exactTitle: string;
}

const namesOf = (q: MatchQuery): Names => ({ core: titleCore(q.title), lead: artistCore(q.artist), full: kernel.normalizeName(q.artist), exactTitle: kernel.normalizeName(q.title) });

/** Tracks the precise stage reads at most when run outside the pool (each is one record read). */
const PRECISE_OUTSIDE_POOL = 256;

/**
 * The precise stage alone: two dictionary look-ups and a few track records, far cheaper than a
 * hand-off to a pool worker, so the server runs it where the request arrives (service/pool.ts) and sends
 * only the queries it leaves unmatched to the pool. 'unsure' when the title and artist name more
 * tracks than it reads outside the pool: the pool then runs every stage.
 */
export function preciseMatch(ix: TextIndex, catalog: Catalog, q: MatchQuery): MatchResult | undefined | 'unsure' {
  return preciseStage(ix, catalog, namesOf(q), PRECISE_OUTSIDE_POOL);
}

function preciseStage(ix: TextIndex, catalog: Catalog, names: Names, maxDocs = Infinity): MatchResult | undefined | 'unsure' {
  const docs = pairDocs(ix, FIELD.precise, names);
  if (docs.length > maxDocs) return 'unsure';
  const precise = bestOf(ix, catalog, docs, names.exactTitle);
  return precise === undefined ? undefined : { track: precise, mode: 'precise', confidence: 1000 };
}

/** Tracks keyed by the title core with the lead artist or the full credit, in one field. */
function pairDocs(ix: TextIndex, field: string, { core, lead, full }: Names): number[] {
  const docs = new Set<number>();
  for (const a of new Set([lead, full])) for (const d of ix.list(ix.trackPostings, field, pairKey(core, a)).array()) docs.add(d);
  return [...docs];
}

/** Among tracks of one title and artist: the exact title, then the original recording, then the most popular. */
function bestOf(ix: TextIndex, catalog: Catalog, docs: number[], exactTitle: string): number | undefined {
  let best: number | undefined;
  let bestKey = -1;
  for (const doc of docs) {
    const t = catalog.getTrack(ix.track.id[doc]);
    if (!t) continue;
    const key = (kernel.normalizeName(t.track_name) === exactTitle ? 2000 : 0) + (t.track_id === t.commontrack_id ? 1000 : 0) + t.track_rating;
    if (key > bestKey) {
      bestKey = key;
      best = t.track_id;
    }
  }
  return best;
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
