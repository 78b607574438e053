/**
 * The engines a pool worker answers with on one index generation: the fingerprint searcher, wired to
 * the catalog for a recording's versions and popularity and, for lines too short for its keys, to
 * the text index's lyrics words; and the text searches. bench/fingerprint builds the same engines.
 */
import type { Catalog } from '../../catalog/store.js';
import type { TrackRecord } from '../../catalog/records.js';
import type { LoadedIndex } from '../store/layout.js';
import { FingerprintSearcher, type Recording } from '../fingerprint/search.js';
import { kernel, type Kernel } from '../kernel/kernel.js';
import { TextSearcher } from '../text/search.js';

export interface Engines {
  fingerprint: FingerprintSearcher;
  text: TextSearcher;
}

/**
 * A short line's words are looked up only when one of them is in at most this many lyrics: the
 * look-up then costs little (measured: up to 100 ms at 1M tracks for a line of common words, whose
 * matches are in the hundreds of thousands), and a line of common words held by thousands of songs
 * names none of them anyway.
 */
const WORD_LOOKUP_MAX = 5000;

/** Normalised lyrics a LyricsCache keeps by default (about 12 MB of lyrics of 1,500 characters). */
export const LYRICS_CACHE = 4096;

/**
 * Normalised lyrics by track id, the most recently used `size` kept: a pool worker's, and the
 * benches' when they measure the engine as a worker runs it. The verification of a line many songs
 * share reads the same popular lyrics query after query. `clear()` when the catalog changes.
 */
export class LyricsCache {
  private readonly lyrics = new Map<number, string>();

  constructor(private readonly catalog: Catalog, private readonly size = LYRICS_CACHE) {}

  /** A track's normalised lyrics, or undefined when it has none. */
  readonly get = (trackId: number): string | undefined => {
    const hit = this.lyrics.get(trackId);
    if (hit !== undefined) {
      // Most recently used last: the first in the map is the one to drop.
      this.lyrics.delete(trackId);
      this.lyrics.set(trackId, hit);
      return hit;
    }
    const body = this.catalog.getContent('lyrics', trackId)?.lyrics_body;
    if (body === undefined) return undefined;
    const text = kernel.normalizeText(body);
    if (this.lyrics.size >= this.size) this.lyrics.delete(this.lyrics.keys().next().value as number);
    this.lyrics.set(trackId, text);
    return text;
  };

  clear(): void {
    this.lyrics.clear();
  }
}

/** `lyricsOf`: a track's normalised lyrics (the worker's LyricsCache); `engine`: the kernel answering (--engine). */
export function makeEngines(index: LoadedIndex, catalog: Catalog, lyricsOf: (trackId: number) => string | undefined, engine: Kernel = kernel): Engines {
  /** The tracks of a recording, most popular first (the indexed one when the group is gone). */
  const versions = (commontrack: number, indexed: number): TrackRecord[] => {
    const tracks = catalog.tracksOf('commontrack', commontrack);
    if (tracks.length > 0) return tracks;
    const alone = catalog.getTrack(indexed);
    return alone ? [alone] : [];
  };
  /** A recording's tracks and its popularity: the rating of its most popular track. */
  const recordingOf = (commontrack: number, indexed: number): Recording => {
    const tracks = versions(commontrack, indexed);
    return { tracks: tracks.map((t) => t.track_id), popularity: tracks[0]?.track_rating ?? 0 };
  };
  const text = new TextSearcher(index, catalog, engine);
  /** Tracks whose lyrics hold every word of a text, one per recording, most popular first (the fingerprint's candidates for a short line). */
  const lyricsHolding = (words: string, limit: number, deadline: number): { track: number; commontrack: number }[] => {
    const rarest = text.rarestLyricsWord(words);
    if (rarest === 0 || rarest > WORD_LOOKUP_MAX) return [];
    return text
      .tracks({ words: { q_lyrics: words }, hasLyrics: true, groupCommontrack: true, sortTrackRating: 'desc', offset: 0, limit }, deadline)
      .ids.flatMap((id) => {
        const t = catalog.getTrack(id);
        return t ? [{ track: id, commontrack: t.commontrack_id }] : [];
      });
  };
  return {
    text,
    fingerprint: new FingerprintSearcher(index, lyricsOf, recordingOf, lyricsHolding, (tracks, words) => text.tracksHoldingWords(tracks, words), undefined, engine),
  };
}
