import { z } from 'zod';
import { defineMethod } from '../method.js';
import { presentArtist } from '../present/artist.js';
import { Artist } from '../resources.js';
import { countryParam, pageParams } from '../params.js';
import type { ArtistRecord } from '../../catalog/records.js';
import type { ApiContext } from '../method.js';
import { availableIn, chartCountries, rankedPage } from './chart.js';

/** An artist is in a country's chart when it is not restricted and one of its tracks is available there. */
function hasAvailableTrack(ctx: ApiContext, artist: ArtistRecord, countries: string[]): boolean {
  if (artist.restricted) return false;
  for (const id of ctx.catalog.idsOf('artist_tracks', artist.artist_id, 200)) {
    const t = ctx.catalog.getTrack(id);
    if (t && availableIn(t.restricted, t.region_restriction, countries)) return true;
  }
  return false;
}

export default defineMethod({
  name: 'chart.artists.get',
  http: 'GET',
  summary: 'The most popular artists (by artist_rating) with content available in the country',
  cache: 'shared',
  params: z.object({
    country: countryParam.optional().describe('chart country: artists with nothing available there are left out'),
    ...pageParams,
  }),
  body: z.object({ artist_list: z.array(z.object({ artist: Artist })) }),
  statuses: [400],
  handle(ctx, p) {
    const countries = chartCountries(ctx, p.country);
    const artists = rankedPage(
      ctx.catalog.artistsByPopularity(),
      (id) => ctx.catalog.getArtist(id),
      (a) => hasAvailableTrack(ctx, a, countries),
      (p.page - 1) * p.page_size,
      p.page_size,
    );
    return { artist_list: artists.map((a) => ({ artist: presentArtist(ctx, a) })) };
  },
});
