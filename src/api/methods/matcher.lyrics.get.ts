import { z } from 'zod';
import { defineMethod } from '../method.js';
import { contentOf } from '../lookup.js';
import { presentLyrics } from '../present/content.js';
import { Lyrics } from '../resources.js';
import { matchParams, matchTrack } from '../match.js';

export default defineMethod({
  name: 'matcher.lyrics.get',
  http: 'GET',
  summary: 'The lyrics of the track a title and artist (or an ISRC) name',
  params: z.object(matchParams),
  body: z.object({ lyrics: Lyrics }),
  statuses: [400, 404, 503],
  async handle(ctx, p) {
    const track = await matchTrack(ctx, p);
    return { lyrics: presentLyrics(ctx, track, contentOf(ctx.catalog, track, 'lyrics')) };
  },
});
