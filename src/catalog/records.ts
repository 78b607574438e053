/**
 * The records the catalog stores: the import format's records with every default filled and the
 * derived fields computed (docs/design.md §5), so reading them needs no further work.
 */
import type { AlbumInput, AnalysisInput, ArtistInput, RegionRestriction, TrackInput } from './schema.js';

type Flag = 0 | 1;

/** xxh64 (hex) of the normalised import line a record came from: re-importing it changes nothing. */
interface Hashed {
  hash: string;
}

export type ArtistRecord = Omit<ArtistInput, 'type' | 'updated_time'> &
  Hashed & {
    updated_time: string;
    /** 1 when no artist line was imported and the record was made from a track's artist fields. */
    derived: Flag;
  };

export type AlbumRecord = Omit<AlbumInput, 'type' | 'updated_time' | 'artist_name'> &
  Hashed & {
    artist_name: string;
    updated_time: string;
    derived: Flag;
  };

export type TrackRecord = Omit<
  TrackInput,
  'type' | 'lyrics' | 'subtitle' | 'richsync' | 'snippet' | 'analysis' | 'translations' | 'commontrack_id' | 'updated_time' | 'region_restriction' | 'album_id'
> &
  Hashed & {
    commontrack_id: number;
    album_id: number;
    updated_time: string;
    region_restriction: RegionRestriction;
    has_lyrics: Flag;
    has_subtitles: Flag;
    has_richsync: Flag;
    has_lyrics_analysis: Flag;
    has_snippet: Flag;
    /** One entry per stored translation: the lyrics' language, the translation's and its share translated. */
    track_lyrics_translation_status: TranslationStatus[];
    /**
     * ISRCs of every track sharing this commontrack_id, kept on each of them (rewritten when a
     * version changes) so showing a track needs no second read.
     */
    commontrack_isrcs: string[];
    /** Path of the track's share page (derived from its id and names, so responses only concatenate). */
    share_path: string;
  };

interface ContentCommon {
  lyrics_copyright: string;
  restricted: Flag;
  region_restriction: RegionRestriction;
  updated_time: string;
}

/**
 * "Most popular first", wherever tracks are ranked by popularity alone: higher rating, then more
 * favourites, then the older id (so the order is total and stable).
 */
export const byPopularity = (a: TrackRecord, b: TrackRecord): number =>
  b.track_rating - a.track_rating || b.num_favourite - a.num_favourite || a.track_id - b.track_id;

export type LyricsRecord = ContentCommon & {
  lyrics_id: number;
  lyrics_body: string;
  lyrics_language: string;
  explicit: Flag;
  instrumental: Flag;
  verified: Flag;
};

export type SubtitleRecord = ContentCommon & {
  subtitle_id: number;
  subtitle_body: string;
  subtitle_language: string;
  subtitle_length: number;
};

export type RichsyncRecord = ContentCommon & {
  richsync_id: number;
  richsync_body: string;
  richsync_language: string;
  richsync_length: number;
  richsync_avg_count: number;
};

export type SnippetRecord = ContentCommon & {
  snippet_id: number;
  snippet_body: string;
  snippet_language: string;
  instrumental: Flag;
};

export type AnalysisRecord = AnalysisInput & { updated_time: string };

export interface TranslationStatus {
  from: string;
  to: string;
  perc: number;
}

/** One language's translation of a track's lyrics and, when the track has one, of its subtitle. */
export interface Translation {
  /** ISO 639-1. */
  language: string;
  lyrics_body: string;
  /** Share of the lyrics' non-blank lines translated (or the share the import gave), 0–1. */
  perc: number;
  /** LRC; '' when the track has no subtitle. */
  subtitle_body: string;
  /** Share of the subtitle's sung lines translated, 0–1. */
  subtitle_perc: number;
  restricted: Flag;
  updated_time: string;
}

/** A track's translations, one per language, in the order imported. */
export interface TranslationsRecord {
  translations: Translation[];
}

/** One entry of the change log: what changed, never the data itself (the feeds read the records). */
export interface Change {
  op: 'put' | 'del';
  kind: 'track' | 'artist' | 'album';
  id: number;
  /** Milliseconds since the epoch. */
  at: number;
}
