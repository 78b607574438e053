/**
 * The length filters of track.subtitle.get and track.richsync.get: `f_<kind>_length` (seconds) with
 * `f_<kind>_length_max_deviation` (seconds, default 0): content whose length differs by more → 404.
 */
import { RefrainError } from '../../errors.js';

export function checkLength(kind: string, length: number, wanted: number | undefined, deviation: number | undefined): void {
  if (wanted === undefined) return;
  const allowed = deviation ?? 0;
  if (Math.abs(length - wanted) > allowed) {
    throw new RefrainError('not_found', `no ${kind} of length ${wanted} ± ${allowed} s (this one lasts ${length} s)`);
  }
}
