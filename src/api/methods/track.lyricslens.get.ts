import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findTrackWith, trackIdParams } from '../lookup.js';
import { Lens } from '../resources.js';
import { RefrainError } from '../../errors.js';
import { lensOf } from './lens.js';

/**
 * Deprecated (docs/design.md §3): before the sunset it answers with `Deprecation` and `Sunset` headers
 * (RFC 9745, RFC 8594); from the sunset on, 410 naming its replacement. Operators can move the date
 * with `--lyricslens-sunset`.
 */
export default defineMethod({
  name: 'track.lyricslens.get',
  http: 'GET',
  summary: 'Deprecated: use track.lyrics.analysis.get',
  deprecated: true,
  params: z.object(trackIdParams),
  body: z.object({ lens: Lens }),
  statuses: [400, 404, 410],
  handle(ctx, p) {
    const sunset = Date.parse(`${ctx.options.lyricslensSunset}T00:00:00Z`);
    const sunsetHttp = new Date(sunset).toUTCString();
    if (ctx.now >= sunset) {
      throw new RefrainError('gone', `track.lyricslens.get was removed on ${ctx.options.lyricslensSunset}: use track.lyrics.analysis.get`, {
        Sunset: sunsetHttp,
        Link: '</ws/1.1/track.lyrics.analysis.get>; rel="successor-version"',
      });
    }
    ctx.headers.Deprecation = '@1735689600'; // 2025-01-01, when track.lyrics.analysis.get replaced it
    ctx.headers.Sunset = sunsetHttp;
    ctx.headers.Link = '</ws/1.1/track.lyrics.analysis.get>; rel="successor-version"';
    const track = findTrackWith(ctx.catalog, p, 'analysis');
    return { lens: lensOf(ctx, track) };
  },
});
