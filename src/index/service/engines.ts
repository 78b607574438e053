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

/**
 * Characters of normalised lyrics a CatalogCache keeps by default (each lyric counted with 64 more
 * for its entry): about 6,000 lyrics of 1,300 characters, 6–12 MB (one or two bytes a character),
 * whatever the lyrics' lengths (up to 100,000 characters each).
 */
export const LYRICS_CACHE = 8_000_000;
/** Track ids of recordings a CatalogCache keeps by default (each recording counted with 4 more): about 16,000 recordings of a few versions, under 1 MB. */
export const RECORDINGS_CACHE = 65_536;

/**
 * The most recently used values by key, at most `budget` of their weights in all (`weigh`, 1 each by
 * default); `get` makes a missing one with `make`. A value heavier than the budget is not kept.
 */
class Recent<K, V> {
  private readonly values = new Map<K, { value: V; weight: number }>();
  private used = 0;

  constructor(private readonly budget: number, private readonly weigh: (value: V) => number = () => 1) {}

  get(key: K, make: (key: K) => V): V {
    const hit = this.values.get(key);
    if (hit !== undefined) {
      // Most recently used last: the first in the map is the one to drop.
      this.values.delete(key);
      this.values.set(key, hit);
      return hit.value;
    }
    const value = make(key);
    const weight = this.weigh(value);
    if (weight > this.budget) return value;
    this.values.set(key, { value, weight });
    this.used += weight;
    while (this.used > this.budget) {
      const [oldest, entry] = this.values.entries().next().value as [K, { weight: number }];
      this.values.delete(oldest);
      this.used -= entry.weight;
    }
    return value;
  }

  clear(): void {
    this.values.clear();
    this.used = 0;
  }
}

/** A track's lyrics, read from the catalog and normalised by `engine`; undefined when it has none. */
const lyricsFrom = (catalog: Catalog, engine: Kernel) => (trackId: number): string | undefined => {
  const body = catalog.getContent('lyrics', trackId)?.lyrics_body;
  return body === undefined ? undefined : engine.normalizeText(body);
};

/**
 * A recording's tracks, most popular first (the indexed one when the group is gone), and its
 * popularity (the rating of its most popular track), read from the catalog: a range of the
 * commontrack index and a record per version.
 */
const recordingFrom = (catalog: Catalog) => (commontrack: number, indexed: number): Recording => {
  let tracks: TrackRecord[] = catalog.tracksOf('commontrack', commontrack);
  if (tracks.length === 0) {
    const alone = catalog.getTrack(indexed);
    tracks = alone ? [alone] : [];
  }
  return { tracks: tracks.map((t) => t.track_id), popularity: tracks[0]?.track_rating ?? 0 };
};

/**
 * What a pool worker's fingerprint searches read from the catalog again and again, the most
 * recently used kept: normalised lyrics by track, and recordings by commontrack. A line many songs
 * share is verified against the same popular lyrics, and its equal answers ranked by the same
 * recordings' popularity, query after query. `clear()` when the catalog changes. The benches use
 * one too when they measure the engine as a worker runs it.
 */
export class CatalogCache {
  private readonly lyrics: Recent<number, string | null>;
  private readonly recordings: Recent<number, Recording>;
  private readonly readLyrics: (trackId: number) => string | undefined;
  private readonly readRecording: (commontrack: number, indexed: number) => Recording;

  /**
   * `engine`: the kernel that normalises lyrics (the engines' own); `lyrics`: the characters of
   * lyrics kept, `recordings`: the track ids of recordings kept (each entry weighed as above).
   */
  constructor(catalog: Catalog, { engine = kernel, lyrics = LYRICS_CACHE, recordings = RECORDINGS_CACHE }: { engine?: Kernel; lyrics?: number; recordings?: number } = {}) {
    this.lyrics = new Recent(lyrics, (text) => (text?.length ?? 0) + 64);
    this.recordings = new Recent(recordings, (recording) => recording.tracks.length + 4);
    this.readLyrics = lyricsFrom(catalog, engine);
    this.readRecording = recordingFrom(catalog);
  }

  /** A track's normalised lyrics, or undefined when it has none. */
  readonly lyricsOf = (trackId: number): string | undefined => this.lyrics.get(trackId, (id) => this.readLyrics(id) ?? null) ?? undefined;

  /** A recording's tracks and popularity (the index's `indexed` track stands for it when its group is gone). */
  readonly recordingOf = (commontrack: number, indexed: number): Recording => this.recordings.get(commontrack, () => this.readRecording(commontrack, indexed));

  clear(): void {
    this.lyrics.clear();
    this.recordings.clear();
  }
}

/**
 * `reads`: where lyrics and recordings come from: a worker's CatalogCache, or the catalog itself
 * for what it omits (each read afresh); `engine`: the kernel answering (--engine).
 */
export function makeEngines(index: LoadedIndex, catalog: Catalog, reads: Partial<Pick<CatalogCache, 'lyricsOf' | 'recordingOf'>> = {}, engine: Kernel = kernel): Engines {
  const lyricsOf = reads.lyricsOf ?? lyricsFrom(catalog, engine);
  const recordingOf = reads.recordingOf ?? recordingFrom(catalog);
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
