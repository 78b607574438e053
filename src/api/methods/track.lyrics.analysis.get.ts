import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findTrackWith, trackIdParams } from '../lookup.js';
import { Lens } from '../resources.js';
import { lensOf } from './lens.js';

export default defineMethod({
  name: 'track.lyrics.analysis.get',
  http: 'GET',
  summary: "Analysis of a track's lyrics: entities, language, meaning, moderation, moods, rating, religion, themes",
  cache: 'shared',
  params: z.object(trackIdParams),
  body: z.object({ analysis: Lens }),
  statuses: [400, 404],
  handle(ctx, p) {
    const track = findTrackWith(ctx.catalog, p, 'analysis');
    return { analysis: lensOf(ctx, track) };
  },
});
