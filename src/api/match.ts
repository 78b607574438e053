/**
 * The matchers' shared part (matcher.track.get, matcher.lyrics.get, matcher.subtitle.get): the
 * ISRC when given, else the index service's matcher (`IndexService.match`: precise → fuzzy → alias
 * stages, docs/index.md, behind a result cache that the catalog's next change drops). The envelope
 * header reports `mode`, `confidence` (0–1000) and `cached`.
 */
import { z } from 'zod';
import type { ApiContext } from './method.js';
import type { TrackRecord } from '../catalog/records.js';
import { RefrainError } from '../errors.js';
import { isrcParam } from './params.js';
import { kernel } from '../index/kernel/kernel.js';

export const matchParams = {
  q_track: z.string().max(500).optional().describe('song title (required unless track_isrc is given)'),
  q_artist: z.string().max(500).optional().describe('song artist (required unless track_isrc is given)'),
  track_isrc: isrcParam.optional().describe('ISRC: when given it is enough on its own'),
};

export interface MatchInput {
  q_track?: string;
  q_artist?: string;
  track_isrc?: string;
}

/** The matched track; sets header.mode, confidence and cached. 404 when nothing is good enough. */
export async function matchTrack(ctx: ApiContext, p: MatchInput): Promise<TrackRecord> {
  if (p.track_isrc !== undefined) {
    const tracks = ctx.catalog.tracksOf('isrc', p.track_isrc, 50);
    if (tracks.length > 0) {
      setHeader(ctx, { mode: 'isrc', confidence: 1000 }, 0);
      return tracks[0];
    }
    if (p.q_track === undefined || p.q_artist === undefined) {
      setHeader(ctx, NO_MATCH, 0);
      throw new RefrainError('not_found', `no track with track_isrc ${p.track_isrc}`);
    }
  }
  if (p.q_track === undefined || p.q_artist === undefined) throw new RefrainError('bad_request', 'q_track and q_artist are required unless track_isrc is given');
  if (!kernel.normalizeName(p.q_track) || !kernel.normalizeName(p.q_artist)) throw new RefrainError('bad_request', 'q_track and q_artist must hold letters or digits');

  const { cached: fromCache, ...result } = await ctx.index.match({ title: p.q_track, artist: p.q_artist });
  const cached = fromCache ? 1 : 0;
  const track = result.track !== undefined ? ctx.catalog.getTrack(result.track) : undefined;
  if (!track) {
    setHeader(ctx, NO_MATCH, cached);
    throw new RefrainError('not_found', `no track matches q_track "${p.q_track}" by q_artist "${p.q_artist}" closely enough`);
  }
  setHeader(ctx, result, cached);
  return track;
}

/** The header of a 404: the fields a matcher answer always carries, so clients that require them parse it. */
const NO_MATCH = { mode: 'none', confidence: 0 };

function setHeader(ctx: ApiContext, r: { mode?: string; confidence?: number }, cached: number): void {
  ctx.header.confidence = r.confidence;
  ctx.header.mode = r.mode;
  ctx.header.cached = cached;
}
