import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findTrackWith, noContent, trackIdParams } from '../lookup.js';
import { presentRichsync } from '../present/content.js';
import { Richsync } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { intParam } from '../params.js';
import { checkLength } from './length-filter.js';
import { JsonFragment, serializeBody } from '../serialized.js';

export default defineMethod({
  name: 'track.richsync.get',
  http: 'GET',
  summary: 'The word-level synced lyrics of a track',
  cache: 'key',
  params: z.object({
    ...trackIdParams,
    f_richsync_length: intParam(0, 100_000).optional().describe('desired length in seconds'),
    f_richsync_length_max_deviation: intParam(0, 100_000).optional().describe('allowed deviation in seconds (default 0)'),
  }),
  body: z.object({ richsync: Richsync }),
  statuses: [400, 403, 404],
  handle(ctx, p) {
    if (ctx.caller.plan === 'free') throw new RefrainError('forbidden', 'Forbidden: richsync needs the basic or enterprise plan');
    const track = findTrackWith(ctx.catalog, p, 'richsync');
    // The body as a JSON string written from its stored form, spliced into the answer's bytes.
    const richsync = ctx.catalog.getRichsyncJson(track.track_id) ?? noContent(track, 'richsync');
    checkLength('richsync', richsync.record.richsync_length, p.f_richsync_length, p.f_richsync_length_max_deviation);
    ctx.header.available = 1;
    return serializeBody({ richsync: presentRichsync(ctx, track, richsync.record, () => new JsonFragment(richsync.json())) });
  },
});
