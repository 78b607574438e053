/**
 * Track search (docs/design.md §3, docs/api.md): every word of each q_* parameter must occur in that
 * parameter's fields; filters and sorts as the public API names them; relevance first by default;
 * `header.available` is the number of matches (of recordings with g_commontrack=1).
 */
import { z } from 'zod';
import { defineMethod, type PoolContext } from '../method.js';
import { presentTrack } from '../present/track.js';
import { Track } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { boolParam, idParam, pageParams, sortParam, yyyymmddParam } from '../params.js';
import { kernel } from '../../index/kernel/kernel.js';
import { packLanguage } from '../../index/text/terms.js';
import type { TrackQuery, WordParam } from '../../index/text/search.js';
import type { TrackRecord } from '../../catalog/records.js';

/** Deepest result reachable by paging (page × page_size). */
export const MAX_RESULT_WINDOW = 10_000;

const words = (what: string) => z.string().max(500, 'must be at most 500 characters').optional().describe(what);
const dateNumber = yyyymmddParam.transform((d) => Number(d.replace(/-/g, '')));

const WORD_PARAMS: readonly WordParam[] = ['q', 'q_track', 'q_artist', 'q_lyrics', 'q_track_artist', 'q_writer'];

export default defineMethod({
  name: 'track.search',
  http: 'GET',
  pool: 'tracks',
  summary: 'Search tracks by title, artist, lyrics or writer words, with filters and sorts',
  cache: 'shared',
  params: z.object({
    q: words('every word in the title, the artist name or the lyrics'),
    q_track: words('every word in the title'),
    q_artist: words('every word in the artist name (aliases and translations too)'),
    q_lyrics: words('every word in the lyrics'),
    q_track_artist: words('every word in the title or the artist name'),
    q_writer: words('every word in the writers'),
    f_artist_id: idParam.optional().describe('only this artist'),
    f_music_genre_id: idParam.optional().describe('only this primary genre'),
    f_lyrics_language: z.string().regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i, 'must be a language code such as en or it').optional().describe('lyrics language'),
    f_has_lyrics: boolParam.optional().describe('1: only tracks with lyrics'),
    f_has_subtitle: boolParam.optional().describe('1: only tracks with subtitles'),
    f_has_rich_sync: boolParam.optional().describe('1: only tracks with richsync'),
    f_has_richsync: boolParam.optional().describe('same as f_has_rich_sync'),
    f_has_lyrics_analysis: boolParam.optional().describe('1/true: only with analysis; 0/false: only without'),
    f_is_instrumental: boolParam.optional().describe('1: only instrumentals; 0: no instrumentals'),
    f_track_release_group_first_release_date_min: dateNumber.optional().describe('first released on or after YYYYMMDD'),
    f_track_release_group_first_release_date_max: dateNumber.optional().describe('first released on or before YYYYMMDD'),
    s_artist_rating: sortParam.optional().describe('sort by artist popularity'),
    s_track_rating: sortParam.optional().describe('sort by track popularity'),
    s_track_release_date: sortParam.optional().describe('sort by first release date'),
    g_commontrack: boolParam.optional().describe('1: one track per recording'),
    quorum_factor: z.string().max(20).optional().describe('accepted for compatibility; every word must match'),
    ...pageParams,
  }),
  body: z.object({ track_list: z.array(z.object({ track: Track })) }),
  statuses: [400, 503],
  async handle(ctx: PoolContext, p) {
    const offset = (p.page - 1) * p.page_size;
    if (offset + p.page_size > MAX_RESULT_WINDOW) throw new RefrainError('bad_request', `page × page_size must stay within ${MAX_RESULT_WINDOW} results`);
    const query: TrackQuery = {
      words: {},
      artistId: p.f_artist_id,
      genreId: p.f_music_genre_id,
      language: p.f_lyrics_language === undefined ? undefined : packLanguage(p.f_lyrics_language),
      hasLyrics: p.f_has_lyrics || undefined,
      hasSubtitles: p.f_has_subtitle || undefined,
      hasRichsync: p.f_has_rich_sync || p.f_has_richsync || undefined,
      hasAnalysis: p.f_has_lyrics_analysis,
      instrumental: p.f_is_instrumental,
      releaseMin: p.f_track_release_group_first_release_date_min,
      releaseMax: p.f_track_release_group_first_release_date_max,
      sortArtistRating: p.s_artist_rating,
      sortTrackRating: p.s_track_rating,
      sortReleaseDate: p.s_track_release_date,
      groupCommontrack: p.g_commontrack,
      offset,
      limit: p.page_size,
    };
    for (const name of WORD_PARAMS) {
      const text = p[name];
      if (text === undefined) continue;
      if (!kernel.normalizeText(text)) throw new RefrainError('bad_request', `${name} holds no letters or digits to search for`);
      query.words[name] = text;
    }
    const result = await ctx.index.searchTracks(query);
    ctx.header.available = result.available;
    const tracks = result.ids.map((id) => ctx.catalog.getTrack(id)).filter((t): t is TrackRecord => t !== undefined);
    return { track_list: tracks.map((t) => ({ track: presentTrack(ctx, t) })) };
  },
});
