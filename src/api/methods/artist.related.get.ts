/**
 * artist.related.get: artists related to one, from the catalog's genres. Each of the artist's
 * primary and secondary genres brings its PER_GENRE most popular artists (the `genre_artists`
 * index, read in popularity order: a few key reads, never a scan); an artist listed under more of
 * them is more related, then the more popular first. The artist itself and restricted artists are
 * left out. A request reads at most |genres| × PER_GENRE index keys and the records of those
 * artists (to leave the restricted out): a few milliseconds, and answers are cached.
 */
import { z } from 'zod';
import { defineMethod } from '../method.js';
import { presentArtist } from '../present/artist.js';
import { Artist } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { idParam, pageParams } from '../params.js';
import { Catalog } from '../../catalog/store.js';
import type { ArtistRecord } from '../../catalog/records.js';
import { pageOf } from './paging.js';

/** Most popular artists read per genre of the artist. */
const PER_GENRE = 200;

export default defineMethod({
  name: 'artist.related.get',
  http: 'GET',
  summary: 'Artists related to an artist: those sharing most of its genres, the more popular first',
  cache: 'shared',
  params: z.object({ artist_id: idParam, ...pageParams }),
  body: z.object({ artist_list: z.array(z.object({ artist: Artist })) }),
  statuses: [400, 404],
  handle(ctx, p) {
    const artist = ctx.catalog.getArtist(p.artist_id);
    if (!artist) throw new RefrainError('not_found', `no artist with artist_id ${p.artist_id}`);
    const shared = new Map<number, { id: number; n: number; rating: number }>();
    for (const genre of Catalog.artistGenres(artist)) {
      for (const { id, rating } of ctx.catalog.artistsOfGenre(genre, PER_GENRE)) {
        if (id === artist.artist_id) continue;
        const seen = shared.get(id);
        if (seen) seen.n++;
        else shared.set(id, { id, n: 1, rating });
      }
    }
    const ranked = [...shared.values()];
    ranked.sort((a, b) => b.n - a.n || b.rating - a.rating || a.id - b.id);
    const related = ranked.map(({ id }) => ctx.catalog.getArtist(id)).filter((a): a is ArtistRecord => !!a && !a.restricted);
    ctx.header.available = related.length;
    return { artist_list: pageOf(related, p.page, p.page_size).map((a) => ({ artist: presentArtist(ctx, a) })) };
  },
});
