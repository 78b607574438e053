/**
 * Stored records written back as lines of the import format (docs/import-format.md), the feeds'
 * format. A line carries every stored value that import would otherwise derive or default —
 * `updated_time`, inherited restrictions, content ids and languages, album names and cover art — so
 * importing it into another data directory gives records equal to the primary's: a replica answers
 * like its primary. Fields import computes itself (`has_*`, `commontrack_isrcs`, `share_path`) and
 * bookkeeping (`hash`, `derived`) are left out.
 *
 * Writers and publishers that works (work.post) lend to a track by ISRC are written into its line.
 *
 * Each line starts with `{"type":…,"<kind>_id":N`, which sync.ts reads without parsing the line.
 */
import type { Catalog } from '../catalog/store.js';
import type { AlbumRecord, ArtistRecord, TrackRecord } from '../catalog/records.js';
import type { WorkStore } from '../works/store.js';

export type RecordKind = 'track' | 'album' | 'artist';

export function artistLine(a: ArtistRecord): string {
  const { hash: _h, derived: _d, artist_id, ...fields } = a;
  return JSON.stringify({ type: 'artist', artist_id, ...fields });
}

export function albumLine(a: AlbumRecord): string {
  const { hash: _h, derived: _d, album_id, ...fields } = a;
  return JSON.stringify({ type: 'album', album_id, ...fields });
}

/** A track with its lyrics, subtitle, richsync, snippet, analysis and translations (a track line is the whole track). */
export function trackLine(catalog: Catalog, works: WorkStore, t: TrackRecord): string {
  const {
    hash: _h, has_lyrics: _l, has_subtitles: _s, has_richsync: _r, has_lyrics_analysis: _a, has_snippet: _n,
    commontrack_isrcs: _c, share_path: _p, track_lyrics_translation_status: _ts, track_id, album_id, ...fields
  } = t;
  const line: Record<string, unknown> = { type: 'track', track_id, ...fields };
  if (album_id) line.album_id = album_id; // 0 stands for "no album" in the store
  // Works linked to the track's ISRC by work.post lend it writers and publishers, shown as part of
  // the track; a replica has no works, so the track line carries the lists as the API shows them.
  const credits = works.creditsOfTrack(t);
  line.writer_list = credits.writer_list;
  line.publisher_list = credits.publisher_list;
  const id = t.track_id;
  // `has_lyrics` is 0 for a blank body that is still stored, so the lyrics are always looked up;
  // the other flags say exactly whether a record exists.
  const lyrics = catalog.getContent('lyrics', id);
  if (lyrics) line.lyrics = lyrics;
  if (t.has_subtitles) line.subtitle = catalog.getContent('subtitles', id);
  if (t.has_richsync) line.richsync = catalog.getContent('richsync', id);
  if (t.has_snippet) line.snippet = catalog.getContent('snippets', id);
  if (t.has_lyrics_analysis) {
    const analysis = catalog.getContent('analysis', id);
    if (analysis) {
      const { updated_time: _u, ...members } = analysis; // import gives it the track's
      line.analysis = members;
    }
  }
  if (t.track_lyrics_translation_status.length > 0) {
    // The status is derived from the translations on import; a subtitle translation is written only where the track has a subtitle.
    line.translations = catalog.getContent('translations', id)?.translations.map(({ subtitle_perc: _sp, subtitle_body, ...x }) => (subtitle_body ? { ...x, subtitle_body } : x));
  }
  return JSON.stringify(line);
}

export function deleteLine(kind: RecordKind, id: number): string {
  return `{"type":"delete","${kind}_id":${id}}`;
}
