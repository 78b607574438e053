import { z } from 'zod';
import { defineMethod } from '../method.js';
import { Subtitle } from '../resources.js';
import { matchParams, matchTrack } from '../match.js';
import { checkSubtitlePlan, renderSubtitle, subtitleParams } from './subtitle.js';

export default defineMethod({
  name: 'matcher.subtitle.get',
  http: 'GET',
  summary: 'The subtitle of the track a title and artist (or an ISRC) name, as LRC, DFXP or mxm JSON',
  params: z.object({ ...matchParams, ...subtitleParams }),
  body: z.object({ subtitle: Subtitle }),
  statuses: [400, 403, 404, 503],
  async handle(ctx, p) {
    checkSubtitlePlan(ctx);
    return { subtitle: renderSubtitle(ctx, await matchTrack(ctx, p), p) };
  },
});
