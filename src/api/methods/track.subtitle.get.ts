import { z } from 'zod';
import { defineMethod } from '../method.js';
import { contentOf, findTrackWith, trackIdParams } from '../lookup.js';
import { presentSubtitle } from '../present/content.js';
import { Subtitle } from '../resources.js';
import { forbidden } from '../../errors.js';
import { intParam } from '../../http/params.js';
import { parseLrc, toDfxp, toMxm } from '../subtitle-format.js';
import { checkLength } from './length-filter.js';

export default defineMethod({
  name: 'track.subtitle.get',
  http: 'GET',
  summary: 'The time-synced lyrics of a track, as LRC, DFXP (TTML) or mxm JSON',
  cache: 'key',
  params: z.object({
    ...trackIdParams,
    subtitle_format: z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(z.enum(['lrc', 'dfxp', 'mxm'], 'must be lrc, dfxp or mxm'))
      .default('lrc'),
    f_subtitle_length: intParam(0, 100_000).optional().describe('desired length in seconds'),
    f_subtitle_length_max_deviation: intParam(0, 100_000).optional().describe('allowed deviation in seconds (default 0)'),
  }),
  body: z.object({ subtitle: Subtitle }),
  statuses: [400, 403, 404],
  handle(ctx, p) {
    if (ctx.key.plan === 'free') throw forbidden('Forbidden: subtitles need the basic or enterprise plan');
    const track = findTrackWith(ctx.catalog, p, 'subtitles');
    ctx.header.instrumental = track.instrumental;
    const subtitle = contentOf(ctx.catalog, track, 'subtitles');
    checkLength('subtitle', subtitle.subtitle_length, p.f_subtitle_length, p.f_subtitle_length_max_deviation);
    let body = subtitle.subtitle_body;
    if (p.subtitle_format === 'mxm') body = toMxm(parseLrc(body));
    else if (p.subtitle_format === 'dfxp') body = toDfxp(parseLrc(body), subtitle.subtitle_language, subtitle.subtitle_length);
    return { subtitle: presentSubtitle(ctx, track, subtitle, body) };
  },
});
