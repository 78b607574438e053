/**
 * track.lyrics.feedback.post: a user reports what is wrong with a track's lyrics (the public API's
 * `feedback` values). Stored as a pending contribution for the operator to review; it never changes
 * the catalog by itself. Enterprise plan; tokens need `contributions:write`.
 */
import { z } from 'zod';
import { defineMethod } from '../method.js';
import { contentOf, findTrack, trackIdParams } from '../lookup.js';
import { idParam } from '../params.js';
import { RefrainError } from '../../errors.js';
import { FEEDBACK } from '../../contributions/store.js';
import { Contribution } from '../../contributions/present.js';
import { contribute } from './contribution.js';

export default defineMethod({
  name: 'track.lyrics.feedback.post',
  http: 'POST',
  input: 'fields',
  summary: "Report what is wrong with a track's lyrics: kept for the operator to review (enterprise plan)",
  plans: ['enterprise'],
  scope: 'contributions:write',
  params: z.object({
    ...trackIdParams,
    lyrics_id: idParam.optional().describe('the lyrics the feedback is about (checked against the track\'s)'),
    feedback: z
      .string(`must be one of ${FEEDBACK.join(', ')}`)
      .transform((s) => s.trim().toLowerCase())
      .pipe(z.enum(FEEDBACK, `must be one of ${FEEDBACK.join(', ')}`))
      .describe('what is wrong'),
  }),
  body: z.object({ contribution: Contribution }),
  statuses: [400, 403, 404, 413],
  async handle(ctx, p) {
    const track = findTrack(ctx.catalog, p, (t) => t.has_lyrics === 1);
    const lyrics = contentOf(ctx.catalog, track, 'lyrics');
    if (p.lyrics_id !== undefined && p.lyrics_id !== lyrics.lyrics_id) {
      throw new RefrainError('not_found', `track ${track.track_id}'s lyrics have lyrics_id ${lyrics.lyrics_id}, not ${p.lyrics_id}`);
    }
    return contribute(ctx, { type: 'feedback', track_id: track.track_id, feedback: p.feedback });
  },
});
