import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findTrack, trackIdParams } from '../lookup.js';
import { presentLyrics } from '../present/content.js';
import { Lyrics } from '../resources.js';
import { notFound } from '../../errors.js';

export default defineMethod({
  name: 'track.lyrics.get',
  http: 'GET',
  summary: 'The lyrics of a track (30% of them, not for commercial use, on the free plan)',
  cache: 'key',
  params: z.object(trackIdParams),
  body: z.object({ lyrics: Lyrics }),
  statuses: [400, 404],
  handle(ctx, p) {
    const track = findTrack(ctx.catalog, p, (t) => t.has_lyrics === 1);
    const lyrics = ctx.catalog.getContent('lyrics', track.track_id);
    if (!lyrics) throw notFound(`track ${track.track_id} has no lyrics`);
    return { lyrics: presentLyrics(ctx, track, lyrics) };
  },
});
