/**
 * A work's collections over time: one per validity_begin date. A submission adds its collection
 * or replaces the one that begins the same day; each collection then ends the day before the next
 * one begins, and the latest stays open (validity_end null). Pure functions.
 */
import type { CollectionRecord, TerritoryRecord } from './records.js';

/** YYYY-MM-DD of the day before a YYYY-MM-DD date (UTC calendar). */
export function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** The collections after a submission's collection: added or replaced, ordered, validity ends recomputed. */
export function withCollection(
  existing: readonly CollectionRecord[],
  next: { validity_begin: string; territories: TerritoryRecord[] },
): CollectionRecord[] {
  const byBegin = new Map(existing.map((c) => [c.validity_begin, c]));
  byBegin.set(next.validity_begin, { validity_begin: next.validity_begin, validity_end: null, territories: next.territories });
  const ordered = [...byBegin.values()].sort((a, b) => (a.validity_begin < b.validity_begin ? -1 : a.validity_begin > b.validity_begin ? 1 : 0));
  return ordered.map((c, i) => ({ ...c, validity_end: i + 1 < ordered.length ? dayBefore(ordered[i + 1].validity_begin) : null }));
}
