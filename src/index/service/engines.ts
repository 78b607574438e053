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
 * Lyrics and recordings a CatalogCache has read once and not kept, remembered so that a second read
 * keeps them (forgotten all at once when this many of either are: a set of numbers, about 1 MB).
 * A 50-character excerpt's tie walk reads some 34 lyrics and 12 recordings that later queries
 * almost never read again (at 1M, 2% of its lyrics and 7% of its recordings were found in the
 * cache, against 67% and 74% of a line's): kept, each displaced one that is read again, and cost
 * the worker's garbage collector a copy (a kept value outlives the young generation), which made
 * the cached worker dearer than an uncached one for such queries.
 */
const SECOND_USE = 65_536;

/**
 * The most recently used values by key, at most `budget` of their weights in all (`weigh`, 1 each by
 * default); `get` makes a missing one with `make`. A value heavier than the budget is not kept, nor
 * one made for the first time since the last SECOND_USE keys were first made (a key used once and
 * never again would only displace the values used again).
 */
class Recent<K, V> {
  private readonly values = new Map<K, { value: V; weight: number }>();
  /**
   * The entries from the least recently used on: one iterator, kept. Every entry it has passed was
   * dropped (a used one is moved to the end, past it). A new iterator for each drop would step over
   * every entry deleted since the map last rehashed: 4.6 µs a miss at 6,000 entries, against 0.3.
   */
  private oldest = this.values.entries();
  private used = 0;
  /** Keys made once and not kept, forgotten all at once when SECOND_USE are. */
  private readonly once = new Set<K>();

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
    if (!this.once.delete(key)) {
      if (this.once.size >= SECOND_USE) this.once.clear();
      this.once.add(key);
      return value;
    }
    this.values.set(key, { value, weight });
    this.used += weight;
    while (this.used > this.budget) {
      let next = this.oldest.next();
      // Never done while the map holds an entry (each one it passed was dropped); made anew if it were.
      if (next.done) next = (this.oldest = this.values.entries()).next();
      const [oldest, entry] = next.value as [K, { weight: number }];
      this.values.delete(oldest);
      this.used -= entry.weight;
    }
    return value;
  }

  clear(): void {
    this.values.clear();
    this.oldest = this.values.entries();
    this.once.clear();
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
