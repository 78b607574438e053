/** The stored lyrics analysis of a track, shared by track.lyrics.analysis.get and its deprecated twin. */
import type { TrackRecord } from '../../catalog/records.js';
import type { ApiContext } from '../method.js';
import { contentOf } from '../lookup.js';

/**
 * The members every analysis answer carries, each with a `description`: one with nothing to say is
 * `{}` (strict clients require the member), one imported without a description gets an empty one.
 */
export const LENS_MEMBERS = ['entities', 'explicitness', 'language_detection', 'meaning', 'moderation', 'moods', 'rating', 'religion', 'themes'] as const;

export function lensOf(ctx: ApiContext, track: TrackRecord): Record<string, unknown> {
  const { updated_time: _updated, ...stored } = contentOf(ctx.catalog, track, 'analysis') as Record<string, unknown>;
  const lens: Record<string, unknown> = {};
  for (const member of LENS_MEMBERS) {
    const value = (stored[member] ?? {}) as Record<string, unknown>;
    // An imported member may leave its description out: strict clients want the field, even empty.
    lens[member] = Object.keys(value).length > 0 && typeof value.description !== 'string' ? { description: '', ...value } : value;
  }
  for (const member in stored) if (!(member in lens)) lens[member] = stored[member];
  return lens;
}
