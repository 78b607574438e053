/**
 * music.genres.get: every music genre of the catalog, as tracks, albums and artists name them in
 * `primary_genres` (and artists in `secondary_genres`; the catalog keeps a table of them as records
 * are written), in id order. A genre
 * stays listed when the records naming it are deleted; a parent id no record names is not listed.
 */
import { z } from 'zod';
import { defineMethod } from '../method.js';

const Genre = z.object({
  music_genre_id: z.number(),
  music_genre_parent_id: z.number().describe('0 for a top-level genre'),
  music_genre_name: z.string(),
  music_genre_name_extended: z.string().describe('the name with its parents'),
  music_genre_vanity: z.string().describe('the name as a URL slug'),
});

export default defineMethod({
  name: 'music.genres.get',
  http: 'GET',
  summary: 'Every music genre of the catalog, by id',
  cache: 'shared',
  params: z.object({}),
  body: z.object({ music_genre_list: z.array(z.object({ music_genre: Genre })) }),
  handle(ctx) {
    return { music_genre_list: ctx.catalog.genres().map((g) => ({ music_genre: g })) };
  },
});
