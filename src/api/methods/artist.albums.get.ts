import { z } from 'zod';
import { defineMethod } from '../method.js';
import { presentAlbum } from '../present/artist.js';
import { Album } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { boolParam, idParam, pageParams, sortParam } from '../params.js';
import type { AlbumRecord } from '../../catalog/records.js';
import { pageOf } from './paging.js';

export default defineMethod({
  name: 'artist.albums.get',
  http: 'GET',
  summary: "An artist's albums, optionally sorted by release date and grouped by name",
  cache: 'shared',
  params: z.object({
    artist_id: idParam,
    s_release_date: sortParam.optional().describe('sort by release date'),
    g_album_name: boolParam.optional().describe('1: one album per name (the first after sorting)'),
    ...pageParams,
  }),
  body: z.object({ album_list: z.array(z.object({ album: Album })) }),
  statuses: [400, 404],
  handle(ctx, p) {
    if (!ctx.catalog.getArtist(p.artist_id)) throw new RefrainError('not_found', `no artist with artist_id ${p.artist_id}`);
    let albums = ctx.catalog
      .idsOf('artist_albums', p.artist_id)
      .map((id) => ctx.catalog.getAlbum(id))
      .filter((a): a is AlbumRecord => !!a);
    if (p.s_release_date) {
      const dir = p.s_release_date === 'asc' ? 1 : -1;
      albums.sort((a, b) => dir * a.album_release_date.localeCompare(b.album_release_date) || a.album_id - b.album_id);
    }
    if (p.g_album_name) {
      const seen = new Set<string>();
      albums = albums.filter((a) => {
        const name = a.album_name.toLowerCase();
        return seen.has(name) ? false : (seen.add(name), true);
      });
    }
    ctx.header.available = albums.length;
    return { album_list: pageOf(albums, p.page, p.page_size).map((a) => ({ album: presentAlbum(ctx, a) })) };
  },
});
