/**
 * artist.search over the text index (docs/index.md): every word of the name in one of the artist's
 * name variants (name, aliases, translations), exact names first; when no artist has every word,
 * names sharing at least half of the query's trigrams (misspellings).
 */
import { kernel, weightAt, type TopK, type VoteBoard } from '../kernel/kernel.js';
import { trigramsOf } from './names.js';
import { FIELD } from './terms.js';
import type { TextIndex } from './text-index.js';
import type { SearchResult } from './track-search.js';

/** Trigram postings read at most by the misspelling fallback. */
const GRAM_BUDGET = 60_000;

export interface ArtistQuery {
  name?: string;
  artistId?: number;
  offset: number;
  limit: number;
}

export function searchArtists(ix: TextIndex, board: VoteBoard, q: ArtistQuery, deadline: number): SearchResult {
  const n = ix.artist.id.length;
  const top = kernel.topK(q.offset + q.limit);
  let available = 0;
  const consider = (doc: number, relevance: number) => {
    if (q.artistId !== undefined && ix.artist.id[doc] !== q.artistId) return;
    available++;
    top.push(doc, relevance * 1000 + ix.artist.rating[doc]);
  };
  const name = q.name ? kernel.normalizeName(q.name) : '';
  if (!name) {
    for (let doc = 0; doc < n; doc++) consider(doc, 0);
  } else {
    const exact = ix.list(ix.artistPostings, FIELD.artistExact, name);
    const clauses = kernel.wordsOf(name).map((w) => {
      const list = ix.list(ix.artistPostings, FIELD.artistWord, w);
      return { docs: list, weights: Math.log(1 + n / Math.max(1, list.length)) };
    });
    const matched = ix.kernel.intersect(clauses, deadline);
    if (matched.docs.length > 0) {
      for (let i = 0; i < matched.docs.length; i++) {
        const doc = matched.docs[i];
        consider(doc, weightAt(matched, i) + (kernel.contains(exact, doc) ? 100 : 0));
      }
    } else {
      // No artist has every word: fall back to names sharing most of the query's trigrams.
      try {
        board.add(ix.gramLists(ix.artistPostings, FIELD.artistGram, trigramsOf(name)), GRAM_BUDGET, deadline);
        for (const doc of board.top(Infinity, 0.5)) consider(doc, board.share(doc));
      } finally {
        board.clear(); // also when the deadline stopped the vote: the worker's next query starts from an empty board
      }
    }
  }
  return { ids: top.sorted().slice(q.offset).map((doc) => ix.artist.id[doc]), available };
}
