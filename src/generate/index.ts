/**
 * Deterministic synthetic catalogs in the import format (docs/design.md §5): artists, albums and
 * tracks with lyrics, subtitles, richsync, snippets and analyses, for benchmarks and tests at any
 * scale. See docs/generate.md for the distributions and id ranges.
 */
import { catalogLines } from './catalog.js';
import { MAX_TRACKS } from './ids.js';

export { ALBUM_ID_BASE, ARTIST_ID_BASE, MAX_TRACKS, TRACK_ID_BASE } from './ids.js';

export interface GenerateOptions {
  /** Number of track lines to produce (0..MAX_TRACKS). */
  tracks: number;
  /** Any integer; the same seed and track count always produce byte-identical output. */
  seed: number;
}

export interface GenerateStats {
  artists: number;
  albums: number;
  tracks: number;
  lines: number;
}

/**
 * Yields the catalog's lines (JSON text, no trailing newline) in import order: an artist line
 * before its albums, an album line before its tracks. Memory stays flat whatever `tracks` is.
 *
 * `stats` counts the lines produced so far. `lines` can be iterated more than once; each
 * iteration starts the catalog over (from the same seed) and resets `stats`.
 *
 * @throws RangeError when `tracks` is not an integer in 0..MAX_TRACKS or `seed` is not an integer.
 */
export function generateCatalog(options: GenerateOptions): { lines: Iterable<string>; stats: GenerateStats } {
  const { tracks, seed } = options;
  if (!Number.isInteger(tracks) || tracks < 0 || tracks > MAX_TRACKS) {
    throw new RangeError(`tracks must be an integer from 0 to ${MAX_TRACKS}, got ${tracks}`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const stats: GenerateStats = { artists: 0, albums: 0, tracks: 0, lines: 0 };
  // Seeds are mixed as 32-bit words: fold a larger seed's high bits in rather than dropping them.
  const seed32 = (seed ^ Math.floor(seed / 4294967296) * 0x9e3779b1) >>> 0;
  return {
    stats,
    lines: {
      [Symbol.iterator]() {
        stats.artists = stats.albums = stats.tracks = stats.lines = 0;
        return catalogLines(seed32, tracks, stats);
      },
    },
  };
}
