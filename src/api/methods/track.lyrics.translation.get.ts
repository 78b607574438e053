/**
 * track.lyrics.translation.get: a track's lyrics with their translation to `selected_language` in
 * `lyrics_translated` (`{}` when there is none, or none with at least `min_completed` of the lines
 * translated). The lyrics answer as track.lyrics.get's do; the translation shares their restriction.
 */
import { z } from 'zod';
import { defineMethod } from '../method.js';
import { contentOf, trackIdParams } from '../lookup.js';
import { presentLyrics, presentLyricsTranslation } from '../present/content.js';
import { Lyrics, LyricsTranslated } from '../resources.js';
import { findTranslatedTrack, translationOf, translationParams } from './translation.js';

export default defineMethod({
  name: 'track.lyrics.translation.get',
  http: 'GET',
  summary: 'The lyrics of a track with their translation to a language',
  cache: 'key',
  params: z.object({ ...trackIdParams, ...translationParams }),
  body: z.object({ lyrics: Lyrics.extend({ lyrics_translated: LyricsTranslated }) }),
  statuses: [400, 404],
  handle(ctx, p) {
    const track = findTranslatedTrack(ctx.catalog, p, 'lyrics');
    const lyrics = contentOf(ctx.catalog, track, 'lyrics');
    const translation = translationOf(ctx.catalog, track, p, 'perc');
    return { lyrics: { ...presentLyrics(ctx, track, lyrics), lyrics_translated: presentLyricsTranslation(ctx, track, lyrics, translation) } };
  },
});
