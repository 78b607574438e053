/**
 * The catalog import format (docs/design.md §5, docs/import-format.md): one JSON record per line, field
 * names are the API's own. These zod schemas validate each line and fill every default, so what they
 * output is exactly what the store keeps and what the API later shows.
 */
import { z } from 'zod';

const ID = 'a whole number from 1 to 4294967294';
/**
 * An id, as a number or its digits. A missing one says "missing", not zod's "expected number,
 * received NaN" of coercing undefined (issue 11 #17); `.optional()` still lets it be absent.
 */
const id = z.custom((v) => v !== undefined, 'missing (required)').pipe(z.coerce.number({ error: ID }).int(ID).min(1, ID).max(0xffff_fffe, ID));
// One literal check rather than a union of three schemas: a track line holds a dozen flags, and the
// union cost about 0.25 µs each more (every check counts here: the import validates every line).
const flag = z.literal([0, 1, true, false], 'a flag: 0 or 1 (true or false)').transform((v) => (v === true || v === 1 ? 1 : 0));
const str = z.string().max(100_000);
const url = z.string().max(2000);
/**
 * An RFC 3339 time, stored as UTC to the second. A time already in that form (`YYYY-MM-DDTHH:MM:SSZ`,
 * as exports write it) is kept as it is: zod's pattern has checked its date and time are real
 * (days of the month, leap years), so going through Date would give it back unchanged, for about
 * 1 µs.
 */
const timestamp = z.iso.datetime({ offset: true }).transform((s) => (s.length === 20 && s[19] === 'Z' ? s : new Date(s).toISOString().slice(0, -5) + 'Z'));
const country = z.string().regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code (XW = worldwide)').transform((s) => s.toUpperCase());
/** A language code or '' (not known): one pattern, not a union of a pattern and a literal (two checks). */
const languageOrNone = z.string().regex(/^([a-z]{2,3}(-[A-Za-z0-9]{2,8})?)?$/i, 'a language code such as en or pt-BR, or empty').transform((s) => s.toLowerCase());
/** A partial date as the public API writes it: YYYY-MM-DD with 00 for unknown parts. */
const partialDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD (00 for unknown parts)');
const partialDateOrNone = z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/, 'YYYY-MM-DD (00 for unknown parts), or empty');

export const regionRestrictionSchema = z.object({
  allowed: z.array(country).default([]),
  blocked: z.array(country).default([]),
});
export type RegionRestriction = z.output<typeof regionRestrictionSchema>;

export const genreSchema = z.object({
  music_genre: z.object({
    music_genre_id: id,
    music_genre_parent_id: z.number().int().min(0).default(0),
    music_genre_name: str,
    music_genre_name_extended: str.optional(),
    music_genre_vanity: str.optional(),
  }).transform((g) => ({
    music_genre_id: g.music_genre_id,
    music_genre_parent_id: g.music_genre_parent_id,
    music_genre_name: g.music_genre_name,
    music_genre_name_extended: g.music_genre_name_extended ?? g.music_genre_name,
    music_genre_vanity: g.music_genre_vanity ?? g.music_genre_name.replace(/[^A-Za-z0-9]+/g, '-'),
  })),
});
const genres = z.object({ music_genre_list: z.array(genreSchema).default([]) }).default({ music_genre_list: [] });

export const artistSchema = z.object({
  type: z.literal('artist'),
  artist_id: id,
  artist_name: str.min(1),
  artist_mbid: z.string().max(64).default(''),
  artist_name_translation_list: z
    .array(z.object({ artist_name_translation: z.object({ language: z.string().max(16), translation: str }) }))
    .default([]),
  artist_comment: str.default(''),
  artist_country: z.union([country, z.literal('')]).default(''),
  artist_alias_list: z.array(z.object({ artist_alias: str })).default([]),
  artist_rating: z.number().int().min(0).max(100).default(0),
  primary_genres: genres,
  secondary_genres: genres,
  artist_twitter_url: url.default(''),
  artist_facebook_url: url.default(''),
  artist_website_url: url.default(''),
  artist_instagram_url: url.default(''),
  artist_youtube_url: url.default(''),
  artist_vanity_id: z.string().max(500).optional(),
  artist_credits: z.object({ artist_list: z.array(z.unknown()).default([]) }).default({ artist_list: [] }),
  restricted: flag.default(0),
  managed: flag.default(0),
  begin_date: partialDate.default('0000-00-00'),
  end_date: partialDate.default('0000-00-00'),
  updated_time: timestamp.optional(),
});

export const albumSchema = z.object({
  type: z.literal('album'),
  album_id: id,
  album_name: str.min(1),
  artist_id: id,
  artist_name: str.optional(),
  album_mbid: z.string().max(64).default(''),
  album_rating: z.number().int().min(0).max(100).default(0),
  album_release_date: partialDateOrNone.default(''),
  album_release_type: z.string().max(40).default('Album'),
  album_label: str.default(''),
  album_copyright: str.default(''),
  album_pline: str.default(''),
  album_coverart_100x100: url.default(''),
  album_coverart_350x350: url.default(''),
  album_coverart_500x500: url.default(''),
  album_coverart_800x800: url.default(''),
  primary_genres: genres,
  secondary_genres: genres,
  restricted: flag.default(0),
  updated_time: timestamp.optional(),
});

const contentBase = {
  lyrics_copyright: str.default('Lyrics powered by Refrain'),
  restricted: flag.default(0),
  region_restriction: regionRestrictionSchema.optional(),
  updated_time: timestamp.optional(),
};

export const lyricsSchema = z.object({
  lyrics_id: id.optional(),
  lyrics_body: str,
  lyrics_language: languageOrNone.default(''),
  explicit: flag.default(0),
  instrumental: flag.default(0),
  verified: flag.default(0),
  ...contentBase,
});

export const subtitleSchema = z.object({
  subtitle_id: id.optional(),
  /** LRC: `[mm:ss.xx] text` lines. */
  subtitle_body: str.max(1_000_000),
  subtitle_language: languageOrNone.default(''),
  subtitle_length: z.number().min(0).optional(),
  ...contentBase,
});

export const richsyncLineSchema = z.object({
  ts: z.number().min(0),
  te: z.number().min(0),
  l: z.array(z.object({ c: z.string(), o: z.number().min(0) })),
  x: z.string(),
});

export const richsyncSchema = z.object({
  richsync_id: id.optional(),
  /** A JSON string of lines (as the API returns it) or the array itself. */
  richsync_body: z.union([z.string().max(2_000_000), z.array(richsyncLineSchema)]),
  richsync_language: languageOrNone.optional(),
  richssync_language: languageOrNone.optional(),
  richsync_length: z.number().min(0).optional(),
  richsync_avg_count: z.number().min(0).optional(),
  ...contentBase,
});

export const snippetSchema = z.object({
  snippet_id: id.optional(),
  snippet_body: str.max(1000),
  snippet_language: languageOrNone.default(''),
  instrumental: flag.default(0),
  ...contentBase,
});

/** ISO 639-1, the code `selected_language` names a translation by. */
const iso6391 = z.string().regex(/^[a-z]{2}$/i, 'an ISO 639-1 code such as it or pt').transform((s) => s.toLowerCase());

/**
 * A translation of the track's lyrics into one language (track.lyrics.translation.get), line by
 * line: line i translates line i of `lyrics_body`, a blank line is one not translated yet. Its
 * subtitle (track.subtitle.translation.get) is given as LRC or, when absent, made from the lyrics
 * translation and the track's subtitle (docs/import-format.md).
 */
export const translationSchema = z.object({
  language: iso6391,
  lyrics_body: str,
  subtitle_body: z.string().max(1_000_000).optional(),
  /** Share of the lyrics translated, 0–1; default: the share of non-blank lines with a translation. */
  perc: z.number().min(0).max(1).optional(),
  restricted: flag.default(0),
  updated_time: timestamp.optional(),
});

/** Lyrics analysis ("lens") members; their inner shape is the spec's and is kept as given. */
export const analysisSchema = z.looseObject({
  entities: z.looseObject({ entity_list: z.array(z.looseObject({})).default([]) }).optional(),
  language_detection: z.looseObject({ languages: z.array(z.looseObject({})).default([]) }).optional(),
  meaning: z.looseObject({ description: z.string().optional(), explanation: z.string().optional() }).optional(),
  moderation: z
    .looseObject({
      categories: z.array(z.object({ category: z.string(), is_present: z.boolean(), score: z.number() })).default([]),
      needs_moderation: z.boolean().optional(),
    })
    .optional(),
  moods: z.looseObject({ main_moods: z.array(z.string()).default([]) }).optional(),
  rating: z.looseObject({ audience: z.string().optional(), descriptor: z.string().optional() }).optional(),
  religion: z.looseObject({ has_references: z.boolean().optional() }).optional(),
  themes: z.looseObject({ main_themes: z.array(z.looseObject({})).default([]) }).optional(),
});

export const isrcPattern = /^[A-Z]{2}[A-Z0-9]{3}\d{2}\d{5}$/;

export const trackSchema = z.object({
  type: z.literal('track'),
  track_id: id,
  // Required, but may be empty: real catalogs hold untitled entries (the Italian corpus has one).
  track_name: str,
  artist_id: id,
  artist_name: str.min(1),
  commontrack_id: id.optional(),
  // Real catalogs hold malformed ISRCs (the corpus has 11-character ones): accept any code-like
  // string on import; lookups normalise case. Generated catalogs use well-formed ones (isrcPattern).
  track_isrc: z.string().regex(/^[A-Za-z0-9-]{0,24}$/, 'letters and digits').transform((s) => s.replace(/-/g, '').toUpperCase()).default(''),
  track_spotify_id: z.string().max(64).default(''),
  track_itunes_id: z.union([z.string().max(32), z.number().int().min(0)]).transform(String).default(''),
  track_mbid: z.string().max(64).default(''),
  track_name_translation_list: z.array(z.unknown()).default([]),
  track_rating: z.number().int().min(0).max(100).default(0),
  track_length: z.number().int().min(0).default(0),
  num_favourite: z.number().int().min(0).default(0),
  explicit: flag.default(0),
  instrumental: flag.default(0),
  has_lyrics_crowd: flag.default(0),
  has_track_structure: flag.default(0),
  album_id: id.optional(),
  album_name: str.default(''),
  album_coverart_100x100: url.default(''),
  album_coverart_350x350: url.default(''),
  album_coverart_500x500: url.default(''),
  album_coverart_800x800: url.default(''),
  /** First release date of the track's release group, YYYY-MM-DD; default: the album's. */
  first_release_date: partialDateOrNone.default(''),
  primary_genres: genres,
  restricted: flag.default(0),
  /** Where the track's lyric content may be shown; applies to lyrics, subtitle, richsync and snippet. */
  region_restriction: regionRestrictionSchema.optional(),
  writer_list: z.array(z.unknown()).default([]),
  publisher_list: z.array(z.unknown()).default([]),
  updated_time: timestamp.optional(),
  lyrics: lyricsSchema.optional(),
  subtitle: subtitleSchema.optional(),
  richsync: richsyncSchema.optional(),
  snippet: snippetSchema.optional(),
  analysis: analysisSchema.optional(),
  /** At most one per language; `track_lyrics_translation_status` is derived from them. */
  translations: z.array(translationSchema).max(200).default([]),
})
  .refine((t) => t.translations.length === 0 || t.lyrics !== undefined, { message: 'translations need the lyrics they translate', path: ['translations'] })
  .refine((t) => t.translations.every((x) => x.subtitle_body === undefined) || t.subtitle !== undefined, {
    message: 'a translation with a subtitle_body needs the track\'s subtitle',
    path: ['translations'],
  })
  .refine((t) => new Set(t.translations.map((x) => x.language)).size === t.translations.length, {
    message: 'one translation per language',
    path: ['translations'],
  });

export const deleteSchema = z
  .object({ type: z.literal('delete'), track_id: id.optional(), artist_id: id.optional(), album_id: id.optional() })
  .refine((d) => [d.track_id, d.artist_id, d.album_id].filter((v) => v !== undefined).length === 1, {
    message: 'a delete names exactly one of track_id, artist_id, album_id',
  });

export const importRecordSchema = z.discriminatedUnion('type', [artistSchema, albumSchema, trackSchema, deleteSchema]);

export type ArtistInput = z.output<typeof artistSchema>;
export type AlbumInput = z.output<typeof albumSchema>;
export type TrackInput = z.output<typeof trackSchema>;
export type ImportRecord = z.output<typeof importRecordSchema>;
export type AnalysisInput = z.output<typeof analysisSchema>;
export type TranslationInput = z.output<typeof translationSchema>;
