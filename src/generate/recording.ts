/**
 * A recording: what every version of a song shares (the `commontrack_id` group): title, lyrics,
 * writers, explicitness, base length, snippet line and analysis. It is a pure function of the seed,
 * the commontrack id and the artist, so a later "(Live)" or "(Remastered)" version regenerates the
 * very same lyrics instead of the generator keeping every song in memory.
 */
import { analyse } from './analysis.js';
import type { ArtistContext } from './artist.js';
import { writeSong, type Song } from './lyrics.js';
import { writers } from './names.js';
import { Rng, deriveSeed } from './prng.js';
import { minTrackLength } from './timing.js';

/** Stream number of recording-level draws in `deriveSeed`. */
const STREAM = 3;

export const MIN_TRACK_LENGTH = 90;
export const MAX_TRACK_LENGTH = 420;

export interface Recording {
  readonly commontrackId: number;
  readonly song: Song;
  readonly instrumental: boolean;
  /** False for a song whose lyrics nobody has transcribed yet (not instrumental, no lyrics). */
  readonly hasLyrics: boolean;
  readonly explicit: boolean;
  readonly copyright: string;
  /** Base length in seconds; versions stretch or cut it. */
  readonly length: number;
  /** The shortest length at which the lyrics can still be synchronised. */
  readonly minLength: number;
  readonly snippet: string;
  readonly analysis?: Record<string, unknown>;
}

/** A typical pop length (mean ≈ 215 s) with a tail of long tracks and a few short ones. */
function baseLength(rng: Rng): number {
  const u = rng.float();
  if (u < 0.05) return rng.int(MIN_TRACK_LENGTH, 140);
  if (u < 0.15) return rng.int(280, MAX_TRACK_LENGTH);
  return Math.round(140 + 50 * (rng.float() + rng.float() + rng.float()));
}

/** Clamps a version's length into what the track format and the lyrics' timing allow. */
export function clampLength(recording: Recording, length: number): number {
  return Math.min(MAX_TRACK_LENGTH, Math.max(recording.minLength, length));
}

/** The recording whose commontrack id is `commontrackId`, by `artist`. */
export function recordingFor(seed: number, commontrackId: number, artist: ArtistContext): Recording {
  const rng = new Rng(deriveSeed(seed, commontrackId, STREAM));
  const instrumental = rng.chance(artist.instrumentalRate);
  const explicit = !instrumental && rng.chance(artist.explicitRate);
  const faith = rng.chance(0.04);
  const song = writeSong(rng, artist.lang, { explicit, faith });
  const hasLyrics = !instrumental && !rng.chance(0.03);
  let lines = 0;
  for (const s of song.sections) lines += s.lines.length;
  const minLength = Math.max(MIN_TRACK_LENGTH, minTrackLength(lines, song.sections.length));
  const credits = writers(rng, artist.lang, artist.name);
  const snippet = rng.pick(song.chorus);
  const analysis = hasLyrics && rng.chance(0.3) ? analyse(rng, song) : undefined;
  return {
    commontrackId,
    song,
    instrumental,
    hasLyrics,
    explicit,
    copyright: `Writer(s): ${credits.join(', ')}\nLyrics powered by Refrain`,
    length: Math.min(MAX_TRACK_LENGTH, Math.max(minLength, baseLength(rng))),
    minLength,
    snippet,
    analysis,
  };
}
