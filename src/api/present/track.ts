/** The Track resource of the spec, from a stored track record, as seen by one caller. */
import type { TrackRecord } from '../../catalog/records.js';
import type { PoolContext } from '../method.js';
import { isRestricted } from '../restrict.js';

/** What presenting a track reads (an index worker's methods have it too). */
export type PresentContext = Pick<PoolContext, 'works' | 'links' | 'country'>;

export interface TrackView {
  /** Include `track_lyrics_translation_status` (track.search, matcher, track.get; not fingerprint). */
  translationStatus?: boolean;
}

/**
 * A track's writer_list and publisher_list: its own (from the import), then those of the works
 * linked to its ISRC by work.post (one LMDB read; docs/api.md, work.post).
 */
export function creditsOfTrack(ctx: PresentContext, t: TrackRecord): { writer_list: unknown[]; publisher_list: unknown[] } {
  return ctx.works.creditsOfTrack(t);
}

export function presentTrack(ctx: PresentContext, t: TrackRecord, view: TrackView = { translationStatus: true }): Record<string, unknown> {
  const out: Record<string, unknown> = {
    track_id: t.track_id,
    track_mbid: t.track_mbid,
    track_isrc: t.track_isrc,
    commontrack_isrcs: t.commontrack_isrcs.length ? [t.commontrack_isrcs] : [],
    track_spotify_id: t.track_spotify_id,
    track_itunes_id: t.track_itunes_id,
    track_name: t.track_name,
    track_name_translation_list: t.track_name_translation_list,
    track_rating: t.track_rating,
    track_length: t.track_length,
    commontrack_id: t.commontrack_id,
    instrumental: t.instrumental,
    explicit: t.explicit,
    has_lyrics: t.has_lyrics,
    has_lyrics_crowd: t.has_lyrics_crowd,
    has_subtitles: t.has_subtitles,
    has_richsync: t.has_richsync,
    has_track_structure: t.has_track_structure,
    has_lyrics_analysis: t.has_lyrics_analysis,
    num_favourite: t.num_favourite,
    album_id: t.album_id,
    album_name: t.album_name,
    artist_id: t.artist_id,
    artist_name: t.artist_name,
    album_coverart_100x100: t.album_coverart_100x100,
    album_coverart_350x350: t.album_coverart_350x350,
    album_coverart_500x500: t.album_coverart_500x500,
    album_coverart_800x800: t.album_coverart_800x800,
    track_share_url: ctx.links.sharePage(t),
    track_edit_url: ctx.links.editPage(t),
    restricted: isRestricted(t.restricted, t.region_restriction, ctx.country) ? 1 : 0,
    first_release_date: t.first_release_date ? `${t.first_release_date}T00:00:00Z` : '',
    updated_time: t.updated_time,
    primary_genres: t.primary_genres,
    // Not in the spec's Track table: additive, as the Lyrics and Richsync resources carry them.
    ...creditsOfTrack(ctx, t),
  };
  if (view.translationStatus) out.track_lyrics_translation_status = t.track_lyrics_translation_status;
  return out;
}
