/**
 * Tracks: one release of a recording on an album, with its own ids, length, popularity and
 * restrictions, carrying the recording's lyrics and, per track, a subtitle, a richsync and a
 * snippet synchronised to this version's length.
 */
import type { AlbumContext } from './album.js';
import type { ArtistContext } from './artist.js';
import { updatedTime } from './dates.js';
import { pareto } from './distributions.js';
import { TRACK_ID_BASE, isrcFor, itunesId, mbid, spotifyId } from './ids.js';
import { Rng, deriveSeed } from './prng.js';
import { clampLength, type Recording } from './recording.js';
import { lrcBody, richsyncBody, timeLines } from './timing.js';
import { translateLyrics } from './translation.js';

/** Stream number of track-level draws in `deriveSeed`. */
const STREAM = 4;

export type VersionKind = 'live' | 'remastered' | 'reissue' | 'acoustic' | 'radio-edit';

/** How a track relates to its recording when it is not the original release. */
export interface Version {
  readonly kind: VersionKind;
  /** The original's release date, which stays the group's first release date. */
  readonly firstReleaseDate: string;
}

/** Countries whose rights holders most often block lyrics (region restrictions). */
const BLOCKING = ['IT', 'DE', 'FR', 'US', 'GB', 'JP', 'BR', 'ES', 'KR', 'IN', 'MX', 'CA'];
const TRANSLATION_TARGETS = ['en', 'es', 'it', 'fr', 'de', 'pt'];

function versionTitle(title: string, version: Version | undefined, year: number): string {
  switch (version?.kind) {
    case 'live': return `${title} (Live)`;
    case 'remastered': return `${title} (Remastered ${year})`;
    case 'acoustic': return `${title} (Acoustic)`;
    case 'radio-edit': return `${title} (Radio Edit)`;
    default: return title;
  }
}

function versionLength(rng: Rng, recording: Recording, version: Version | undefined): number {
  const base = recording.length;
  switch (version?.kind) {
    case 'live': return clampLength(recording, base + rng.int(10, 50));
    case 'remastered': return clampLength(recording, base + rng.int(-1, 1));
    case 'acoustic': return clampLength(recording, base + rng.int(-15, 20));
    case 'radio-edit': return clampLength(recording, base - rng.int(15, 45));
    default: return base;
  }
}

function regionRestriction(rng: Rng): Record<string, string[]> | undefined {
  const u = rng.float();
  if (u < 0.005) return { allowed: [], blocked: ['XW'] };
  if (u < 0.035) {
    const blocked = [rng.pick(BLOCKING)];
    if (rng.chance(0.3)) {
      const other = rng.pick(BLOCKING);
      if (other !== blocked[0]) blocked.push(other);
    }
    return { allowed: ['XW'], blocked };
  }
  if (u < 0.04) return { allowed: [rng.pick(BLOCKING)], blocked: [] };
  return undefined;
}

/** Builds the catalog line of the n-th track of the catalog (n from 1). */
export function makeTrack(
  seed: number,
  n: number,
  artist: ArtistContext,
  album: AlbumContext,
  recording: Recording,
  version?: Version,
): Record<string, unknown> {
  const rng = new Rng(deriveSeed(seed, n, STREAM));
  const id = TRACK_ID_BASE + n;
  const { song } = recording;
  const lang = song.lang.code;
  const length = versionLength(rng, recording, version);
  // Zipf-like popularity: most tracks have a handful of favourites, a few hits have most of them.
  const weight = version ? 0.15 : 1;
  const favourites = Math.min(2_000_000, Math.floor((pareto(rng, 1.15) - 1) * 25 * Math.pow(artist.fame, 0.35) * weight));
  const record: Record<string, unknown> = {
    type: 'track',
    track_id: id,
    commontrack_id: recording.commontrackId,
    track_name: versionTitle(song.title, version, album.year),
    artist_id: artist.id,
    artist_name: artist.name.name,
    album_id: album.id,
    album_name: album.name,
    track_isrc: isrcFor(n, deriveSeed(seed, 0, STREAM), artist.country, album.year),
  };
  if (rng.chance(0.85)) record.track_spotify_id = spotifyId(rng);
  if (rng.chance(0.65)) record.track_itunes_id = itunesId(rng);
  if (rng.chance(0.2)) record.track_mbid = mbid(rng);
  record.track_rating = Math.min(100, Math.max(1, Math.round(1 + 22 * Math.log10(1 + favourites))));
  record.track_length = length;
  record.num_favourite = favourites;
  record.explicit = recording.explicit ? 1 : 0;
  record.instrumental = recording.instrumental ? 1 : 0;
  if (rng.chance(0.003)) record.restricted = 1;
  const region = regionRestriction(rng);
  if (region) record.region_restriction = region;
  record.first_release_date = version ? version.firstReleaseDate : album.releaseDate;
  Object.assign(record, album.covers);
  record.primary_genres = album.genres;
  let translation: { to: string; perc: number } | undefined;
  if (recording.hasLyrics && rng.chance(0.08)) {
    const to = rng.pick(TRANSLATION_TARGETS.filter((l) => l !== lang));
    translation = { to, perc: rng.chance(0.7) ? 1 : Math.round(rng.float() * 100) / 100 };
  }
  record.updated_time = updatedTime(rng, album.year);
  if (!recording.hasLyrics) return record;

  const copyright = recording.copyright;
  record.lyrics = { lyrics_body: song.body, lyrics_language: lang, lyrics_copyright: copyright, explicit: record.explicit, verified: rng.chance(0.4) ? 1 : 0 };
  if (rng.chance(0.6)) {
    const lines = timeLines(rng, song.sections, length);
    record.subtitle = { subtitle_body: lrcBody(lines), subtitle_language: lang, subtitle_length: length, lyrics_copyright: copyright };
    // 25% of lyrics tracks overall: 0.6 × 5/12.
    if (rng.chance(5 / 12)) {
      record.richsync = { richsync_body: richsyncBody(rng, lines), richsync_language: lang, richsync_length: length, lyrics_copyright: copyright };
    }
  }
  record.snippet = { snippet_body: recording.snippet, snippet_language: lang };
  if (recording.analysis) record.analysis = recording.analysis;
  // The import derives the share translated (and so track_lyrics_translation_status) and the subtitle's translation.
  if (translation) record.translations = [{ language: translation.to, lyrics_body: translateLyrics(song.body, translation.to, translation.perc) }];
  return record;
}
