import { z } from 'zod';
import { defineMethod } from '../method.js';
import { presentTrack } from '../present/track.js';
import { Track } from '../resources.js';
import { matchParams, matchTrack } from '../match.js';

export default defineMethod({
  name: 'matcher.track.get',
  http: 'GET',
  summary: 'The catalog track a title and artist (or an ISRC) name, tolerant of misspellings, version suffixes and aliases',
  params: z.object(matchParams),
  body: z.object({ track: Track }),
  statuses: [400, 404, 503],
  async handle(ctx, p) {
    return { track: presentTrack(ctx, await matchTrack(ctx, p)) };
  },
});
