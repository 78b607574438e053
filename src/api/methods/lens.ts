/** The stored lyrics analysis of a track, shared by track.lyrics.analysis.get and its deprecated twin. */
import type { TrackRecord } from '../../catalog/records.js';
import type { ApiContext } from '../method.js';
import { contentOf } from '../lookup.js';

export function lensOf(ctx: ApiContext, track: TrackRecord): Record<string, unknown> {
  const { updated_time: _updated, ...lens } = contentOf(ctx.catalog, track, 'analysis');
  return lens;
}
