import { z } from 'zod';
import { defineMethod } from '../method.js';
import { presentArtist } from '../present/artist.js';
import { Artist } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { idParam } from '../params.js';

export default defineMethod({
  name: 'artist.get',
  http: 'GET',
  summary: 'An artist by id',
  cache: 'shared',
  params: z.object({ artist_id: idParam }),
  body: z.object({ artist: Artist }),
  statuses: [400, 404],
  handle(ctx, p) {
    const artist = ctx.catalog.getArtist(p.artist_id);
    if (!artist) throw new RefrainError('not_found', `no artist with artist_id ${p.artist_id}`);
    return { artist: presentArtist(ctx, artist) };
  },
});
