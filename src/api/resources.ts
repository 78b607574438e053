/**
 * The spec's resources as zod schemas: the OpenAPI document's response schemas, and what the HTTP
 * tests check every response against (field names and types of the spec's resource tables).
 */
import { z } from 'zod';

const flag = z.union([z.literal(0), z.literal(1)]);
const timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
const regionRestriction = z.object({ allowed: z.array(z.string()), blocked: z.array(z.string()) });
const trackingUrls = {
  script_tracking_url: z.url(),
  pixel_tracking_url: z.url(),
  html_tracking_url: z.url(),
};
const genreList = z.object({
  music_genre_list: z.array(
    z.object({
      music_genre: z.object({
        music_genre_id: z.number(),
        music_genre_parent_id: z.number(),
        music_genre_name: z.string(),
        music_genre_name_extended: z.string(),
        music_genre_vanity: z.string(),
      }),
    }),
  ),
});

export const Track = z.object({
  track_id: z.number(),
  commontrack_id: z.number(),
  commontrack_isrcs: z.array(z.array(z.string())),
  track_isrc: z.string(),
  track_name: z.string(),
  track_rating: z.number(),
  track_length: z.number(),
  track_spotify_id: z.string(),
  track_itunes_id: z.string(),
  album_id: z.number(),
  album_name: z.string(),
  album_coverart_100x100: z.string(),
  album_coverart_350x350: z.string(),
  album_coverart_500x500: z.string(),
  album_coverart_800x800: z.string(),
  artist_id: z.number(),
  artist_name: z.string(),
  explicit: flag,
  has_lyrics: flag,
  has_richsync: flag,
  has_subtitles: flag,
  has_lyrics_crowd: flag,
  has_track_structure: flag,
  has_lyrics_analysis: flag,
  instrumental: flag,
  restricted: flag,
  num_favourite: z.number(),
  primary_genres: genreList,
  track_edit_url: z.url(),
  track_share_url: z.url(),
  track_lyrics_translation_status: z.array(z.object({ from: z.string(), to: z.string(), perc: z.number().min(0).max(1) })).optional(),
  updated_time: timestamp,
  writer_list: z.array(z.unknown()).describe("the track's own writers, then those of works linked to its ISRC by work.post"),
  publisher_list: z.array(z.unknown()).describe("the track's own publishers, then those of works linked to its ISRC"),
});

export const Lyrics = z.object({
  lyrics_id: z.number(),
  lyrics_body: z.string(),
  lyrics_language: z.string(),
  lyrics_copyright: z.string(),
  explicit: flag,
  restricted: flag,
  ...trackingUrls,
  region_restriction: regionRestriction,
  updated_time: timestamp,
});

export const Subtitle = z.object({
  subtitle_id: z.number(),
  subtitle_body: z.string(),
  subtitle_language: z.string(),
  subtitle_language_description: z.string(),
  subtitle_length: z.number(),
  lyrics_copyright: z.string(),
  restricted: flag,
  ...trackingUrls,
  updated_time: timestamp,
});

const selected_language = z.string().describe('ISO 639-1 code of the translation');
/** A translation's part of track.lyrics.translation.get; `{}` when there is none. */
export const LyricsTranslated = z.union([
  z.object({ lyrics_body: z.string(), selected_language, restricted: flag, ...trackingUrls }),
  z.object({}).strict(),
]);

/** A translation's part of track.subtitle.translation.get; `{}` when there is none. */
export const SubtitleTranslated = z.union([
  z.object({ subtitle_body: z.string(), selected_language, restricted: flag, ...trackingUrls }),
  z.object({}).strict(),
]);

export const Snippet = z.object({
  snippet_id: z.number(),
  snippet_body: z.string(),
  snippet_language: z.string(),
  instrumental: flag,
  restricted: flag,
  region_restriction: regionRestriction,
  ...trackingUrls,
  updated_time: timestamp,
});

export const Richsync = z.object({
  richsync_id: z.number(),
  richsync_body: z.string(),
  richssync_language: z.string(),
  richsync_language: z.string(),
  richsync_language_description: z.string(),
  richsync_length: z.number(),
  richsync_avg_count: z.number(),
  lyrics_copyright: z.string(),
  publisher_list: z.array(z.unknown()),
  writer_list: z.array(z.unknown()),
  restricted: flag,
  ...trackingUrls,
  updated_time: timestamp,
});

const partialDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const Artist = z.object({
  artist_id: z.number(),
  artist_name: z.string(),
  artist_alias_list: z.array(z.object({ artist_alias: z.string() })),
  artist_comment: z.string(),
  artist_country: z.string(),
  artist_credits: z.object({ artist_list: z.array(z.unknown()) }),
  artist_name_translation_list: z.array(
    z.object({ artist_name_translation: z.object({ language: z.string(), translation: z.string() }) }),
  ),
  artist_twitter_url: z.string(),
  artist_share_url: z.url().describe("the artist's page on this server"),
  artist_edit_url: z.url().describe("the artist's catalog line, for the operator to correct"),
  begin_date: partialDate,
  end_date: partialDate,
  begin_date_year: z.string(),
  end_date_year: z.string(),
  restricted: flag,
  updated_time: timestamp,
});

export const Album = z.object({
  album_id: z.number(),
  album_name: z.string(),
  album_rating: z.number(),
  album_track_count: z.number(),
  album_release_date: z.string(),
  album_release_type: z.string(),
  artist_id: z.number(),
  artist_name: z.string(),
  primary_genres: genreList,
  restricted: flag,
  updated_time: timestamp,
  album_coverart_100x100: z.string(),
});

/** A lens member: its fields, or `{}` when it has nothing to say. */
const member = <T extends z.ZodRawShape>(shape: T) => z.union([z.object({ description: z.string(), ...shape }), z.object({}).strict()]);
const Match = z.object({ start_char: z.number(), end_char: z.number(), matched_text: z.string() });
export const Lens = z.object({
  entities: member({ entity_list: z.array(z.looseObject({})) }),
  explicitness: member({
    is_explicit: z.boolean(),
    explicit_expressions: z.array(z.object({ expression: z.string(), category: z.string(), severity: z.string(), matches: z.array(Match) })),
  }),
  language_detection: member({ languages: z.array(z.looseObject({})) }),
  meaning: member({ explanation: z.string() }),
  moderation: member({ categories: z.array(z.object({ category: z.string(), is_present: z.boolean(), score: z.number() })), needs_moderation: z.boolean() }),
  moods: member({ main_moods: z.array(z.string()) }),
  rating: member({ audience: z.string(), descriptor: z.string() }),
  religion: member({ has_references: z.boolean() }),
  themes: member({ main_themes: z.array(z.object({ theme: z.string(), quotes: z.array(z.string()) })) }),
});
