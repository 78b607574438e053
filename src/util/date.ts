/** ISO 8601 UTC timestamp without milliseconds, as the public API writes `updated_time`. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Days since the Unix epoch (UTC) of a millisecond timestamp: the unit of daily quotas. */
export function utcDay(ms: number): number {
  return Math.floor(ms / 86_400_000);
}
