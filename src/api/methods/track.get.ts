import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findTrack, trackIdParams } from '../lookup.js';
import { presentTrack } from '../present/track.js';
import { Track } from '../resources.js';

export default defineMethod({
  name: 'track.get',
  http: 'GET',
  summary: 'A track by any of its identifiers',
  cache: 'shared',
  params: z.object(trackIdParams),
  body: z.object({ track: Track }),
  statuses: [400, 404],
  handle(ctx, p) {
    return { track: presentTrack(ctx, findTrack(ctx.catalog, p)) };
  },
});
