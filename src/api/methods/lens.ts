/** The stored lyrics analysis of a track, shared by track.lyrics.analysis.get and its deprecated twin. */
import type { TrackRecord } from '../../catalog/records.js';
import type { ApiContext } from '../method.js';
import { notFound } from '../../errors.js';

export function lensOf(ctx: ApiContext, track: TrackRecord): Record<string, unknown> {
  const analysis = ctx.catalog.getContent('analysis', track.track_id);
  if (!analysis) throw notFound(`track ${track.track_id} has no lyrics analysis`);
  const { updated_time: _updated, ...lens } = analysis;
  return lens;
}
