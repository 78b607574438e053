/**
 * track.subtitle.translation.get: a track's subtitle with its translation to `selected_language` in
 * `subtitle_translated` (same times, translated lines; `{}` when there is none complete enough). The
 * subtitle answers as track.subtitle.get's does: same plan, format and length filter.
 */
import { z } from 'zod';
import { defineMethod } from '../method.js';
import { trackIdParams } from '../lookup.js';
import { presentSubtitleTranslation } from '../present/content.js';
import { Subtitle, SubtitleTranslated } from '../resources.js';
import { checkSubtitlePlan, formatSubtitle, renderSubtitle, subtitleOf, subtitleParams } from './subtitle.js';
import { findTranslatedTrack, translationOf, translationParams } from './translation.js';

export default defineMethod({
  name: 'track.subtitle.translation.get',
  http: 'GET',
  summary: 'The time-synced lyrics of a track with their translation to a language (basic and enterprise plans)',
  cache: 'key',
  params: z.object({ ...trackIdParams, ...subtitleParams, ...translationParams }),
  body: z.object({ subtitle: Subtitle.extend({ subtitle_translated: SubtitleTranslated }) }),
  statuses: [400, 403, 404],
  handle(ctx, p) {
    checkSubtitlePlan(ctx);
    const track = findTranslatedTrack(ctx.catalog, p, 'subtitles');
    const original = subtitleOf(ctx, track, p);
    const x = translationOf(ctx.catalog, track, p, 'subtitle_perc');
    const body = x ? formatSubtitle(x.subtitle_body, p.subtitle_format, x.language, original.subtitle_length) : '';
    return { subtitle: { ...renderSubtitle(ctx, track, p, original), subtitle_translated: presentSubtitleTranslation(ctx, track, original, x, body) } };
  },
});
