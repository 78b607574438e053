/** Dates in the API's forms: partial `YYYY-MM-DD` (00 for unknown parts) and ISO 8601 timestamps. */
import { isoSeconds } from '../util/date.js';
import type { Rng } from './prng.js';

/** The last year a generated release can carry. */
export const LAST_YEAR = 2025;

function two(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** A valid day of `year`: month 1–12 and a day that month has. */
export function dayOf(rng: Rng, year: number): { month: number; day: number } {
  const month = rng.int(1, 12);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { month, day: rng.int(1, days) };
}

/**
 * A date in `year` known to a random precision: the full day (`full` share), the month only
 * (`month` share), or the year only (`YYYY-00-00`).
 */
export function partialDate(rng: Rng, year: number, full: number, month: number): string {
  const d = dayOf(rng, year);
  const u = rng.float();
  if (u < full) return `${year}-${two(d.month)}-${two(d.day)}`;
  if (u < full + month) return `${year}-${two(d.month)}-00`;
  return `${year}-00-00`;
}

/** The year of a partial date (0 when unknown). */
export function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}

/** An `updated_time` some time between the start of `fromYear` and the end of LAST_YEAR. */
export function updatedTime(rng: Rng, fromYear: number): string {
  const from = Date.UTC(Math.max(2008, Math.min(fromYear, LAST_YEAR)), 0, 1);
  const to = Date.UTC(LAST_YEAR + 1, 0, 1);
  return isoSeconds(from + Math.floor(rng.float() * (to - from)));
}
