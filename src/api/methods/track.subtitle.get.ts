import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findTrackWith, trackIdParams } from '../lookup.js';
import { Subtitle } from '../resources.js';
import { checkSubtitlePlan, renderSubtitle, subtitleParams } from './subtitle.js';

export default defineMethod({
  name: 'track.subtitle.get',
  http: 'GET',
  summary: 'The time-synced lyrics of a track, as LRC, DFXP (TTML) or mxm JSON',
  cache: 'key',
  params: z.object({ ...trackIdParams, ...subtitleParams }),
  body: z.object({ subtitle: Subtitle }),
  statuses: [400, 403, 404],
  handle(ctx, p) {
    checkSubtitlePlan(ctx);
    return { subtitle: renderSubtitle(ctx, findTrackWith(ctx.catalog, p, 'subtitles'), p) };
  },
});
