/**
 * track.lyrics.post: a user proposes lyrics for a track. Stored as a pending contribution for the
 * operator to review (`refrain contributions`); the catalog changes only when it is approved.
 * Enterprise plan; tokens need `contributions:write`.
 */
import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findTrack, trackIdParams } from '../lookup.js';
import { Contribution } from '../../contributions/present.js';
import { contribute } from './contribution.js';

/** Longest lyrics accepted, as the import format's. */
const MAX_LYRICS = 100_000;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export default defineMethod({
  name: 'track.lyrics.post',
  http: 'POST',
  input: 'fields',
  summary: 'Propose lyrics for a track: kept for the operator to review (enterprise plan)',
  plans: ['enterprise'],
  scope: 'contributions:write',
  params: z.object({
    ...trackIdParams,
    lyrics_body: z
      .string('must be text')
      .refine((s) => s.trim() !== '', 'must not be blank')
      .refine((s) => s.length <= MAX_LYRICS, `must be at most ${MAX_LYRICS} characters`)
      // Control characters other than line breaks and tabs have no place in lyrics.
      .refine((s) => !CONTROL.test(s), 'must be text: no control characters but line breaks and tabs')
      .describe('the lyrics proposed, lines separated by \\n'),
    lyrics_language: z
      .string()
      .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i, 'must be a language code such as en or pt-BR')
      .transform((s) => s.toLowerCase())
      .optional()
      .describe('their language (default: the current lyrics\')'),
  }),
  body: z.object({ contribution: Contribution }),
  statuses: [400, 403, 404, 413],
  async handle(ctx, p) {
    const track = findTrack(ctx.catalog, p, (t) => t.has_lyrics === 1);
    return contribute(ctx, { type: 'lyrics', track_id: track.track_id, lyrics_body: p.lyrics_body.replace(/\r\n?/g, '\n'), lyrics_language: p.lyrics_language });
  },
});
