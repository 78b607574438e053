/**
 * Region restrictions (docs/design.md §3). Content stays 200 when restricted: `restricted: 1`, an empty
 * body and a notice. Codes are ISO 3166-1 alpha-2; XW means worldwide.
 *
 * With a known country (the key's, or the caller's `country`), content is restricted when blocked
 * there or when its allow-list names neither XW nor that country. Without one, only content blocked
 * worldwide, or allowed in a closed list of countries, is restricted: for the rest the caller
 * receives `region_restriction` and must honour it, as the spec asks.
 */
import type { RegionRestriction } from '../catalog/schema.js';

export const RESTRICTED_NOTICE = "Unfortunately we're not authorized to show these lyrics.";

export function isRestricted(restricted: 0 | 1, rr: RegionRestriction, country: string): boolean {
  if (restricted) return true;
  if (rr.blocked.includes('XW')) return true;
  const openWorld = rr.allowed.length === 0 || rr.allowed.includes('XW');
  if (!country) return !openWorld;
  if (rr.blocked.includes(country)) return true;
  return !openWorld && !rr.allowed.includes(country);
}
