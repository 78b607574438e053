/**
 * Charts come from catalog popularity (track_rating, then num_favourite; artist_rating), walked
 * from the top of a popularity index. Region restrictions of the chart's country and of the
 * caller's are honoured by skipping what is restricted there. A page never scans more than
 * MAX_SCAN index entries, so a filter that few tracks pass cannot make a request expensive.
 */
import type { ApiContext } from '../method.js';
import { isRestricted } from '../restrict.js';

export const MAX_SCAN = 50_000;

/** The countries whose restrictions a chart honours: the caller's and the one asked for. */
export function chartCountries(ctx: ApiContext, country: string | undefined): string[] {
  return [...new Set([ctx.caller.country, country ?? ''].filter(Boolean))];
}

export function availableIn(restricted: 0 | 1, rr: { allowed: string[]; blocked: string[] }, countries: string[]): boolean {
  if (countries.length === 0) return !isRestricted(restricted, rr, '');
  return countries.every((c) => !isRestricted(restricted, rr, c));
}

/** Items `offset`..`offset+count` of a ranked id stream that pass `keep`, scanning at most MAX_SCAN ids. */
export function rankedPage<T>(ids: Iterable<number>, load: (id: number) => T | undefined, keep: (item: T) => boolean, offset: number, count: number): T[] {
  const out: T[] = [];
  let passed = 0;
  let scanned = 0;
  for (const id of ids) {
    if (++scanned > MAX_SCAN || out.length >= count) break;
    const item = load(id);
    if (!item || !keep(item)) continue;
    if (passed++ >= offset) out.push(item);
  }
  return out;
}
