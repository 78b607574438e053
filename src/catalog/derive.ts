/**
 * Derived fields of stored records (docs/design.md §5): availability flags, `commontrack_id`, ids of
 * content records, inherited region restrictions and timestamps. Pure functions of an import line.
 */
import type {
  AlbumRecord, AnalysisRecord, LyricsRecord, RichsyncRecord, SnippetRecord, SubtitleRecord, TrackRecord, TranslationsRecord,
} from './records.js';
import type { RegionRestriction, TrackInput } from './schema.js';
import type { ContentKind } from './store.js';
import { sharePath } from '../util/slug.js';
import { encodeLrc, encodeRichsync, richsyncCounts } from './synced.js';

const WORLDWIDE: RegionRestriction = { allowed: ['XW'], blocked: [] };

/**
 * The stored track record of a track line (without its content, which has databases of its own).
 * Written out field by field, in the import schema's order (the region restriction, which may come
 * from the lyrics, after them) and then the derived fields, so that every record has the same
 * fields in the same order whatever the line left out: spreading the line's fields and adding the
 * rest cost ~25 µs a track (a shape of its own for each combination of optional fields), most of
 * the import's deriving, and gave records of many layouts to encode.
 */
export function trackRecord(input: TrackInput, album: AlbumRecord | undefined, hash: string, now: string): TrackRecord {
  const { lyrics, subtitle, richsync, analysis, snippet, translations } = input;
  return withAlbum({
    track_id: input.track_id,
    track_name: input.track_name,
    artist_id: input.artist_id,
    artist_name: input.artist_name,
    commontrack_id: input.commontrack_id ?? input.track_id,
    track_isrc: input.track_isrc,
    track_spotify_id: input.track_spotify_id,
    track_itunes_id: input.track_itunes_id,
    track_mbid: input.track_mbid,
    track_name_translation_list: input.track_name_translation_list,
    track_rating: input.track_rating,
    track_length: input.track_length,
    num_favourite: input.num_favourite,
    explicit: input.explicit,
    instrumental: input.instrumental,
    has_lyrics_crowd: input.has_lyrics_crowd,
    has_track_structure: input.has_track_structure,
    album_id: input.album_id ?? 0,
    album_name: input.album_name || '',
    album_coverart_100x100: input.album_coverart_100x100 || '',
    album_coverart_350x350: input.album_coverart_350x350 || '',
    album_coverart_500x500: input.album_coverart_500x500 || '',
    album_coverart_800x800: input.album_coverart_800x800 || '',
    first_release_date: input.first_release_date || '',
    primary_genres: input.primary_genres,
    restricted: input.restricted,
    writer_list: input.writer_list,
    publisher_list: input.publisher_list,
    updated_time: input.updated_time ?? now,
    region_restriction: input.region_restriction ?? lyrics?.region_restriction ?? WORLDWIDE,
    has_lyrics: lyrics && lyrics.lyrics_body.trim() !== '' ? 1 : 0,
    has_subtitles: subtitle ? 1 : 0,
    has_richsync: richsync ? 1 : 0,
    has_lyrics_analysis: analysis ? 1 : 0,
    has_snippet: snippet ? 1 : 0,
    track_lyrics_translation_status: translations.map((x) => ({
      from: lyrics?.lyrics_language ?? '',
      to: x.language,
      perc: x.perc ?? translatedShare(lyrics?.lyrics_body.split('\n') ?? [], x.lyrics_body.split('\n')),
    })),
    commontrack_isrcs: input.track_isrc ? [input.track_isrc] : [],
    share_path: sharePath(input),
    hash,
  }, album);
}

/**
 * Fill derived values of a track line that are costly to compute (the richsync's average group
 * count scans tens of kilobytes), so the import's reading thread does it instead of the writer;
 * from the richsync's stored form when there is one (its counts, without the text).
 */
export function precompute(input: TrackInput, forms?: SyncedForms): void {
  const richsync = input.richsync;
  if (!richsync || richsync.richsync_avg_count !== undefined) return;
  if (!forms?.richsync) {
    richsync.richsync_avg_count = averageGroups(richsync.richsync_body);
    return;
  }
  const { lines, groups } = richsyncCounts(forms.richsync);
  richsync.richsync_avg_count = groupsPerLine(groups, lines);
}

/** A track line's subtitle and richsync in the form the catalog stores them (synced.ts), or false: kept as text. */
export interface SyncedForms {
  subtitle: Uint8Array | false;
  richsync: Uint8Array | false;
}

/**
 * The stored forms of a track line's synced bodies, against the lyrics of the same line (the
 * import's reading thread computes them: parsing a richsync and checking its render is the
 * costliest step of writing a track).
 */
export function syncedForms(input: TrackInput): SyncedForms {
  const lyrics = input.lyrics?.lyrics_body ?? '';
  return {
    subtitle: (input.subtitle && encodeLrc(input.subtitle.subtitle_body, lyrics)) || false,
    richsync: (input.richsync && encodeRichsync(richsyncText(input.richsync.richsync_body), lyrics)) || false,
  };
}

/**
 * Empties the synced bodies that have a stored form and that nothing else derives from, once
 * `precompute` has read them: the writer stores the form in their place, so the text (a richsync's
 * is tens of kilobytes of JSON) would only be packed, handed to the writing thread and unpacked for
 * nothing. A subtitle stays when the line has translations (their subtitles are made from it).
 */
export function dropEncodedBodies(input: TrackInput, forms: SyncedForms): void {
  if (forms.richsync && input.richsync) input.richsync.richsync_body = '';
  if (forms.subtitle && input.subtitle && input.translations.length === 0) input.subtitle.subtitle_body = '';
}

/** A richsync body as the catalog keeps and serves it: JSON text (the import format also takes the array). */
const richsyncText = (body: string | object[]): string => (typeof body === 'string' ? body : JSON.stringify(body));

type Contents = {
  lyrics?: LyricsRecord;
  subtitles?: SubtitleRecord;
  richsync?: RichsyncRecord;
  snippets?: SnippetRecord;
  analysis?: AnalysisRecord;
  translations?: TranslationsRecord;
} & Partial<Record<ContentKind, object>>;

/**
 * The content records of a track line; a content record inherits the track's restriction. Each is
 * written out field by field, the four inherited fields too (its fields in one order: see
 * trackRecord): spreading a shared object of those four into each record cost 17 µs a track
 * against 3 (the generated catalog's first 20,000 lines, measured 2026-11-27).
 */
export function contentRecords(input: TrackInput, track: TrackRecord): Contents {
  const restricted = (c: { restricted: 0 | 1 }) => (c.restricted || track.restricted) as 0 | 1;
  const out: Contents = {};
  const { lyrics, subtitle, richsync, snippet, analysis } = input;
  if (lyrics) {
    out.lyrics = {
      lyrics_copyright: lyrics.lyrics_copyright,
      restricted: restricted(lyrics),
      region_restriction: lyrics.region_restriction ?? track.region_restriction,
      updated_time: lyrics.updated_time ?? track.updated_time,
      lyrics_id: lyrics.lyrics_id ?? track.track_id,
      lyrics_body: lyrics.lyrics_body,
      lyrics_language: lyrics.lyrics_language,
      explicit: (lyrics.explicit || track.explicit) as 0 | 1,
      instrumental: (lyrics.instrumental || track.instrumental) as 0 | 1,
      verified: lyrics.verified,
    };
  }
  const language = lyrics?.lyrics_language ?? '';
  if (subtitle) {
    out.subtitles = {
      lyrics_copyright: subtitle.lyrics_copyright,
      restricted: restricted(subtitle),
      region_restriction: subtitle.region_restriction ?? track.region_restriction,
      updated_time: subtitle.updated_time ?? track.updated_time,
      subtitle_id: subtitle.subtitle_id ?? track.track_id,
      subtitle_body: subtitle.subtitle_body,
      subtitle_language: subtitle.subtitle_language || language,
      subtitle_length: Math.round(subtitle.subtitle_length ?? track.track_length),
    };
  }
  if (richsync) {
    out.richsync = {
      lyrics_copyright: richsync.lyrics_copyright,
      restricted: restricted(richsync),
      region_restriction: richsync.region_restriction ?? track.region_restriction,
      updated_time: richsync.updated_time ?? track.updated_time,
      richsync_id: richsync.richsync_id ?? track.track_id,
      richsync_body: richsyncText(richsync.richsync_body),
      richsync_language: richsync.richsync_language || richsync.richssync_language || language,
      richsync_length: Math.round(richsync.richsync_length ?? track.track_length),
      richsync_avg_count: richsync.richsync_avg_count ?? averageGroups(richsync.richsync_body),
    };
  }
  if (snippet) {
    out.snippets = {
      lyrics_copyright: snippet.lyrics_copyright,
      restricted: restricted(snippet),
      region_restriction: snippet.region_restriction ?? track.region_restriction,
      updated_time: snippet.updated_time ?? track.updated_time,
      snippet_id: snippet.snippet_id ?? track.track_id,
      snippet_body: snippet.snippet_body,
      snippet_language: snippet.snippet_language || language,
      instrumental: snippet.instrumental,
    };
  }
  if (analysis) out.analysis = { ...analysis, updated_time: track.updated_time };
  if (input.translations.length > 0) {
    const lyricsLines = lyrics?.lyrics_body.split('\n') ?? [];
    out.translations = {
      translations: input.translations.map((x, i) => {
        const lrc = x.subtitle_body ?? (subtitle ? translateLrc(subtitle.subtitle_body, lyricsLines, x.lyrics_body.split('\n')) : '');
        return {
          language: x.language,
          lyrics_body: x.lyrics_body,
          perc: track.track_lyrics_translation_status[i].perc,
          subtitle_body: lrc,
          subtitle_perc: subtitle ? translatedShare(lrcTexts(subtitle.subtitle_body), lrcTexts(lrc)) : 0,
          restricted: x.restricted,
          updated_time: x.updated_time ?? track.updated_time,
        };
      }),
    };
  }
  return out;
}

/**
 * The content records of a track line as their databases store them: contentRecords, with a
 * subtitle's or a richsync's body in its stored form (synced.ts) when it has one.
 */
export function storedContent(input: TrackInput, track: TrackRecord, forms: SyncedForms): Partial<Record<ContentKind, object>> {
  const content = contentRecords(input, track);
  const stored: Partial<Record<ContentKind, object>> = { ...content };
  if (content.subtitles && forms.subtitle) stored.subtitles = { ...content.subtitles, subtitle_body: forms.subtitle };
  if (content.richsync && forms.richsync) stored.richsync = { ...content.richsync, richsync_body: forms.richsync };
  return stored;
}

/**
 * A track record that trackRecord made without the track's album, completed as trackRecord
 * would have made it with `album`: the album's fields where the line left them empty.
 */
export function withAlbum(track: TrackRecord, album: AlbumRecord | undefined): TrackRecord {
  if (!album) return track;
  track.album_name ||= album.album_name || '';
  track.album_coverart_100x100 ||= album.album_coverart_100x100 || '';
  track.album_coverart_350x350 ||= album.album_coverart_350x350 || '';
  track.album_coverart_500x500 ||= album.album_coverart_500x500 || '';
  track.album_coverart_800x800 ||= album.album_coverart_800x800 || '';
  track.first_release_date ||= album.album_release_date || '';
  return track;
}

/** Share of the non-blank original lines whose line at the same place in the translation is not blank, to two decimals. */
function translatedShare(original: readonly string[], translated: readonly string[]): number {
  let lines = 0;
  let done = 0;
  original.forEach((line, i) => {
    if (line.trim() === '') return;
    lines++;
    if ((translated[i] ?? '').trim() !== '') done++;
  });
  return lines === 0 ? 0 : Math.round((done / lines) * 100) / 100;
}

/** An LRC line: its time tags, then the sung text. */
const LRC_LINE = /^((?:\[\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?\])+)\s?(.*)$/;

/** The sung text of each line of an LRC body ('' for lines that are not timed lines). */
function lrcTexts(lrc: string): string[] {
  return lrc.split('\n').map((line) => LRC_LINE.exec(line)?.[2] ?? '');
}

/**
 * The subtitle of a translation, made from the track's subtitle: each timed line keeps its time and
 * sings the translation of the lyrics line it repeats ('' when that line has none yet).
 */
function translateLrc(lrc: string, original: readonly string[], translated: readonly string[]): string {
  const byText = new Map<string, string>();
  original.forEach((line, i) => {
    const key = line.trim();
    const text = (translated[i] ?? '').trim();
    if (key !== '' && text !== '' && !byText.has(key)) byText.set(key, text);
  });
  return lrc
    .split('\n')
    .map((line) => {
      const m = LRC_LINE.exec(line);
      if (!m) return line;
      const text = byText.get(m[2].trim()) ?? '';
      return text ? `${m[1]} ${text}` : m[1];
    })
    .join('\n');
}

/** Occurrences of `needle` in `text`. */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * Mean number of character groups per richsync line. Counted on the JSON text (`"c":` per group,
 * `"ts":` per line) instead of parsing it: richsync bodies run to tens of kilobytes and parsing
 * them was a tenth of the import's time.
 */
export function averageGroups(body: string | { l: unknown[] }[]): number {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const lines = occurrences(text, '"ts":');
  return groupsPerLine(occurrences(text, '"c":'), lines);
}

/** The mean of `groups` over `lines`, to two decimals (0 for no lines, not NaN). */
const groupsPerLine = (groups: number, lines: number): number => (lines === 0 ? 0 : Math.round((groups / lines) * 100) / 100);
