import { z } from 'zod';
import { defineMethod } from '../method.js';
import { presentAlbum } from '../present/artist.js';
import { Album } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { idParam } from '../params.js';

export default defineMethod({
  name: 'album.get',
  http: 'GET',
  summary: 'An album by id',
  cache: 'shared',
  params: z.object({ album_id: idParam }),
  body: z.object({ album: Album }),
  statuses: [400, 404],
  handle(ctx, p) {
    const album = ctx.catalog.getAlbum(p.album_id);
    if (!album) throw new RefrainError('not_found', `no album with album_id ${p.album_id}`);
    return { album: presentAlbum(ctx, album) };
  },
});
