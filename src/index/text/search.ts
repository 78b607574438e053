/**
 * The text searches a pool worker runs on one generation: track.search (track-search.ts),
 * artist.search (artist-search.ts) and the matcher (matcher.ts), over one TextIndex.
 */
import type { Catalog } from '../../catalog/store.js';
import type { LoadedIndex } from '../store/layout.js';
import { TextIndex } from './text-index.js';
import { kernel as processKernel, type Kernel, type VoteBoard } from '../kernel/kernel.js';
import { rarestLyricsWord, searchTracks, tracksHoldingWords, type SearchResult, type TrackQuery } from './track-search.js';
import { searchArtists, type ArtistQuery } from './artist-search.js';
import { Matcher, type MatchQuery, type MatchResult } from './matcher.js';

export type { SearchResult, TrackQuery, WordParam, Order } from './track-search.js';
export type { ArtistQuery } from './artist-search.js';
export type { MatchQuery, MatchResult, MatchMode } from './matcher.js';

export class TextSearcher {
  private readonly ix: TextIndex;
  private readonly matcher: Matcher;
  private readonly artistVotes: VoteBoard;

  /** `kernel`: the one whose list operations answer (--engine; the TypeScript one by default). */
  constructor(index: LoadedIndex, catalog: Catalog, kernel: Kernel = processKernel) {
    this.ix = new TextIndex(index, kernel);
    this.matcher = new Matcher(this.ix, catalog);
    this.artistVotes = kernel.voteBoard(this.ix.artist.id.length);
  }

  tracks(q: TrackQuery, deadline: number): SearchResult {
    return searchTracks(this.ix, q, deadline);
  }

  /** Of `tracks`, those whose lyrics hold every one of `words` (normalised). */
  tracksHoldingWords(tracks: readonly number[], words: readonly string[]): number[] {
    return tracksHoldingWords(this.ix, tracks, words);
  }

  /** Tracks whose lyrics hold the rarest word of a text (0 when a word is in none). */
  rarestLyricsWord(text: string): number {
    return rarestLyricsWord(this.ix, text);
  }

  artists(q: ArtistQuery, deadline: number): SearchResult {
    return searchArtists(this.ix, this.artistVotes, q, deadline);
  }

  match(q: MatchQuery, deadline: number, afterPrecise = false): MatchResult {
    return this.matcher.match(q, deadline, afterPrecise);
  }
}
