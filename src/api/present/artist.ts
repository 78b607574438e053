/** The Artist and Album resources, from stored records. */
import type { AlbumRecord, ArtistRecord } from '../../catalog/records.js';
import type { ApiContext, PoolContext } from '../method.js';
import { slug } from '../../util/slug.js';

const year = (date: string): string => (date.startsWith('0000') ? '' : date.slice(0, 4));

export function presentArtist(ctx: Pick<PoolContext, 'links'>, a: ArtistRecord): Record<string, unknown> {
  return {
    artist_id: a.artist_id,
    artist_mbid: a.artist_mbid,
    artist_name: a.artist_name,
    artist_name_translation_list: a.artist_name_translation_list,
    artist_comment: a.artist_comment,
    artist_country: a.artist_country,
    artist_alias_list: a.artist_alias_list,
    artist_rating: a.artist_rating,
    primary_genres: a.primary_genres,
    secondary_genres: a.secondary_genres,
    artist_twitter_url: a.artist_twitter_url,
    artist_facebook_url: a.artist_facebook_url,
    artist_website_url: a.artist_website_url,
    artist_instagram_url: a.artist_instagram_url,
    artist_youtube_url: a.artist_youtube_url,
    artist_vanity_id: a.artist_vanity_id ?? slug(a.artist_name),
    artist_credits: a.artist_credits,
    restricted: a.restricted,
    managed: a.managed,
    updated_time: a.updated_time,
    artist_share_url: ctx.links.artistPage(a),
    artist_edit_url: `${ctx.links.artistPage(a)}/edit`,
    begin_date_year: year(a.begin_date),
    begin_date: a.begin_date,
    end_date_year: year(a.end_date),
    end_date: a.end_date,
  };
}

export function presentAlbum(ctx: ApiContext, a: AlbumRecord): Record<string, unknown> {
  return {
    album_id: a.album_id,
    album_mbid: a.album_mbid,
    album_name: a.album_name,
    album_rating: a.album_rating,
    album_track_count: ctx.catalog.countOf('album_tracks', a.album_id),
    album_release_date: a.album_release_date,
    album_release_type: a.album_release_type,
    artist_id: a.artist_id,
    artist_name: a.artist_name,
    primary_genres: a.primary_genres,
    secondary_genres: a.secondary_genres,
    album_pline: a.album_pline,
    album_copyright: a.album_copyright,
    album_label: a.album_label,
    album_vanity_id: `${slug(a.artist_name)}/${slug(a.album_name)}`,
    restricted: a.restricted,
    updated_time: a.updated_time,
    album_coverart_100x100: a.album_coverart_100x100,
    album_coverart_350x350: a.album_coverart_350x350,
    album_coverart_500x500: a.album_coverart_500x500,
    album_coverart_800x800: a.album_coverart_800x800,
  };
}
