/**
 * Artist search: every word of q_artist in one of the artist's names (its name, aliases or
 * translations); when no artist has them all, names sharing most of its letters (misspellings).
 * Exact names first, then relevance, then artist_rating.
 */
import { z } from 'zod';
import { defineMethod, type PoolContext } from '../method.js';
import { presentArtist } from '../present/artist.js';
import { Artist } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { idParam, pageParams } from '../params.js';
import { kernel } from '../../index/kernel/kernel.js';
import type { ArtistRecord } from '../../catalog/records.js';
import { MAX_RESULT_WINDOW } from './track.search.js';

export default defineMethod({
  name: 'artist.search',
  http: 'GET',
  pool: 'artists',
  summary: 'Search artists by name, alias or name translation',
  cache: 'shared',
  params: z.object({
    q_artist: z.string().max(500, 'must be at most 500 characters').optional().describe('artist name, alias or translation'),
    f_artist_id: idParam.optional().describe('only this artist'),
    ...pageParams,
  }),
  body: z.object({ artist_list: z.array(z.object({ artist: Artist })) }),
  statuses: [400, 503],
  async handle(ctx: PoolContext, p) {
    const offset = (p.page - 1) * p.page_size;
    if (offset + p.page_size > MAX_RESULT_WINDOW) throw new RefrainError('bad_request', `page × page_size must stay within ${MAX_RESULT_WINDOW} results`);
    if (p.q_artist !== undefined && !kernel.normalizeName(p.q_artist)) throw new RefrainError('bad_request', 'q_artist holds no letters or digits to search for');
    const result = await ctx.index.searchArtists({ name: p.q_artist, artistId: p.f_artist_id, offset, limit: p.page_size });
    ctx.header.available = result.available;
    const artists = result.ids.map((id) => ctx.catalog.getArtist(id)).filter((a): a is ArtistRecord => a !== undefined);
    return { artist_list: artists.map((a) => ({ artist: presentArtist(ctx, a) })) };
  },
});
