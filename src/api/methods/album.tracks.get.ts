import { z } from 'zod';
import { defineMethod } from '../method.js';
import { presentTrack } from '../present/track.js';
import { Track } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { boolParam, idParam, pageParams } from '../params.js';
import type { TrackRecord } from '../../catalog/records.js';
import { pageOf } from './paging.js';

export default defineMethod({
  name: 'album.tracks.get',
  http: 'GET',
  summary: 'The tracks of an album',
  cache: 'shared',
  params: z.object({
    album_id: idParam,
    f_has_lyrics: boolParam.optional().describe('1: only tracks with lyrics'),
    ...pageParams,
  }),
  body: z.object({ track_list: z.array(z.object({ track: Track })) }),
  statuses: [400, 404],
  handle(ctx, p) {
    if (!ctx.catalog.getAlbum(p.album_id)) throw new RefrainError('not_found', `no album with album_id ${p.album_id}`);
    let tracks = ctx.catalog
      .idsOf('album_tracks', p.album_id)
      .map((id) => ctx.catalog.getTrack(id))
      .filter((t): t is TrackRecord => !!t);
    if (p.f_has_lyrics) tracks = tracks.filter((t) => t.has_lyrics === 1);
    ctx.header.available = tracks.length;
    return { track_list: pageOf(tracks, p.page, p.page_size).map((t) => ({ track: presentTrack(ctx, t) })) };
  },
});
