import { z } from 'zod';
import { defineMethod } from '../method.js';
import { presentTrack } from '../present/track.js';
import { Track } from '../resources.js';
import { boolParam, countryParam, pageParams } from '../params.js';
import type { TrackRecord } from '../../catalog/records.js';
import { availableIn, chartCountries, rankedPage } from './chart.js';

const YEAR_MS = 365 * 86_400_000;

export default defineMethod({
  name: 'chart.tracks.get',
  http: 'GET',
  summary: 'The most popular tracks; top/mxmweekly: all time, hot/mxmweekly_new: first released in the last year',
  cache: 'shared',
  params: z.object({
    chart_name: z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(z.enum(['top', 'hot', 'mxmweekly', 'mxmweekly_new'], 'must be top, hot, mxmweekly or mxmweekly_new'))
      .default('top'),
    country: countryParam.optional().describe("chart country: tracks restricted there are left out"),
    f_has_lyrics: boolParam.optional().describe('1: only tracks with lyrics'),
    ...pageParams,
  }),
  body: z.object({ track_list: z.array(z.object({ track: Track })) }),
  statuses: [400],
  handle(ctx, p) {
    const countries = chartCountries(ctx, p.country);
    const recentOnly = p.chart_name === 'hot' || p.chart_name === 'mxmweekly_new';
    const since = new Date(ctx.now - YEAR_MS).toISOString().slice(0, 10);
    const keep = (t: TrackRecord) =>
      (!p.f_has_lyrics || t.has_lyrics === 1) &&
      (!recentOnly || t.first_release_date >= since) &&
      availableIn(t.restricted, t.region_restriction, countries);
    const tracks = rankedPage(ctx.catalog.tracksByPopularity(), (id) => ctx.catalog.getTrack(id), keep, (p.page - 1) * p.page_size, p.page_size);
    return { track_list: tracks.map((t) => ({ track: presentTrack(ctx, t) })) };
  },
});
