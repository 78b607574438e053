/** The subtitle parameters and rendering shared by track.subtitle.get and matcher.subtitle.get. */
import { z } from 'zod';
import type { ApiContext } from '../method.js';
import type { SubtitleRecord, TrackRecord } from '../../catalog/records.js';
import { contentOf } from '../lookup.js';
import { presentSubtitle } from '../present/content.js';
import { RefrainError } from '../../errors.js';
import { intParam } from '../params.js';
import { parseLrc, toDfxp, toMxm } from '../subtitle-format.js';
import { checkLength } from './length-filter.js';

export const subtitleParams = {
  subtitle_format: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['lrc', 'dfxp', 'mxm'], 'must be lrc, dfxp or mxm'))
    .default('lrc'),
  f_subtitle_length: intParam(0, 100_000).optional().describe('desired length in seconds'),
  f_subtitle_length_max_deviation: intParam(0, 100_000).optional().describe('allowed deviation in seconds (default 0)'),
};

type SubtitleOptions = z.output<z.ZodObject<typeof subtitleParams>>;

/** Subtitles need the basic or enterprise plan. */
export function checkSubtitlePlan(ctx: ApiContext): void {
  if (ctx.caller.plan === 'free') throw new RefrainError('forbidden', 'Forbidden: subtitles need the basic or enterprise plan');
}

/** A track's subtitle record, after the length filter (404 without one; header.instrumental set either way). */
export function subtitleOf(ctx: ApiContext, track: TrackRecord, p: SubtitleOptions): SubtitleRecord {
  ctx.header.instrumental = track.instrumental;
  const subtitle = contentOf(ctx.catalog, track, 'subtitles');
  checkLength('subtitle', subtitle.subtitle_length, p.f_subtitle_length, p.f_subtitle_length_max_deviation);
  return subtitle;
}

/** The `subtitle` body of a track in the requested format, after the length filter. */
export function renderSubtitle(ctx: ApiContext, track: TrackRecord, p: SubtitleOptions, subtitle = subtitleOf(ctx, track, p)): Record<string, unknown> {
  return presentSubtitle(ctx, track, subtitle, formatSubtitle(subtitle.subtitle_body, p.subtitle_format, subtitle.subtitle_language, subtitle.subtitle_length));
}

/** An LRC body in the requested subtitle format. */
export function formatSubtitle(lrc: string, format: SubtitleOptions['subtitle_format'], language: string, length: number): string {
  if (format === 'mxm') return toMxm(parseLrc(lrc));
  if (format === 'dfxp') return toDfxp(parseLrc(lrc), language, length);
  return lrc;
}
