import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findContent, trackIdParams } from '../lookup.js';
import { presentLyrics } from '../present/content.js';
import { Lyrics } from '../resources.js';

export default defineMethod({
  name: 'track.lyrics.get',
  http: 'GET',
  summary: 'The lyrics of a track (30% of them, not for commercial use, on the free plan)',
  cache: 'key',
  params: z.object(trackIdParams),
  body: z.object({ lyrics: Lyrics }),
  statuses: [400, 404],
  handle(ctx, p) {
    const { track, content } = findContent(ctx.catalog, p, 'lyrics');
    return { lyrics: presentLyrics(ctx, track, content) };
  },
});
