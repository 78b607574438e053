/**
 * Screens any text for lyrics (docs/design.md §4, docs/fingerprint.md): ranked tracks whose lyrics the
 * text contains, with `similarity` 0–100, the share of the text a lyric accounts for.
 */
import { z } from 'zod';
import { defineMethod, type PoolContext } from '../method.js';
import { presentTrack } from '../present/track.js';
import { Track } from '../resources.js';
import { intParam } from '../params.js';
import { RefrainError } from '../../errors.js';

/**
 * The shortest text screened: a quoted line of a song is the commonest thing screeners see, so any
 * text of MIN_WORDS words, or of MIN_UNSPACED characters of a script written without spaces between
 * words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar), where a count of words means nothing.
 */
export const MIN_WORDS = 3;
export const MIN_UNSPACED = 6;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;

/** Throws 400 when a text is too short to screen, with a hint naming the minimum. */
export function requireScreenable(text: string): void {
  const words = text.split(/[\s\p{P}\p{S}]+/u).filter(Boolean).length;
  if (words >= MIN_WORDS) return;
  const unspaced = text.match(UNSPACED)?.length ?? 0;
  if (unspaced >= MIN_UNSPACED) return;
  throw new RefrainError(
    'bad_request',
    `data.text must hold at least ${MIN_WORDS} words, or ${MIN_UNSPACED} characters of a script written without spaces (it has ${words} ${words === 1 ? 'word' : 'words'})`,
  );
}
const MAX_SIZE = 20;

export default defineMethod({
  name: 'track.lyrics.fingerprint.post',
  http: 'POST',
  pool: 'fingerprint',
  summary: 'Screen a text for lyrics: tracks whose lyrics it contains, ranked, with similarity 0–100 (enterprise plan)',
  plans: ['enterprise'],
  scope: 'fingerprint',
  params: z.object({
    size: intParam(1, MAX_SIZE).default(10).describe('lyric candidates considered, 1–20'),
    limit: intParam(1, MAX_SIZE).optional().describe('tracks returned, 1–size (default size)'),
    data: z.object({ text: z.string('must be a string') }, 'is required: send {"data":{"text":"…"}}'),
  }).superRefine((p, ctx) => {
    // A schema rule, so a batch refuses it once for the whole request rather than once per text.
    if (p.limit !== undefined && p.limit > p.size) ctx.addIssue({ code: 'custom', path: ['limit'], message: `must be between 1 and size (${p.size})`, input: p.limit });
  }),
  body: z.object({
    track_list: z.array(
      z.object({
        similarity: z.number().describe('0–100: share of the text the lyrics account for'),
        matched_chars: z.number().describe('characters of the normalised text the lyrics account for'),
        longest_match: z.number().describe('longest passage of the normalised text found in the lyrics, in characters'),
        track: Track,
      }),
    ),
  }),
  statuses: [400, 403, 503],
  // Under overload most requests are refused: refuse them before reading and parsing their text
  // (its length in characters is at most its bytes, and at most the cap).
  admitBody(ctx, bytes) {
    ctx.index.admitFingerprint(Math.min(bytes, ctx.options.maxFingerprintChars));
  },
  async handle(ctx: PoolContext, p) {
    const limit = p.limit ?? p.size;
    const text = p.data.text;
    const max = ctx.options.maxFingerprintChars;
    if (text.trim() === '') throw new RefrainError('bad_request', 'data.text is empty');
    if (text.length > max) throw new RefrainError('bad_request', `data.text is ${text.length} characters long; the limit is ${max}`);
    requireScreenable(text);

    const hits = await ctx.index.fingerprint(text, p.size);
    const trackList: object[] = [];
    for (const hit of hits) {
      for (const id of hit.tracks) {
        if (trackList.length >= limit) break;
        const track = ctx.catalog.getTrack(id);
        if (!track) continue;
        trackList.push({
          similarity: Math.round(hit.similarity * 100) / 100,
          matched_chars: hit.covered,
          longest_match: hit.longest,
          track: presentTrack(ctx, track, { translationStatus: false }),
        });
      }
      if (trackList.length >= limit) break;
    }
    return { track_list: trackList };
  },
});
