/**
 * Batch commands (import, index, sync) run at a lower CPU priority than a server on the same machine,
 * so a large import takes the cores a server leaves idle instead of the ones its requests need
 * (docs/operations.md, "Imports beside a serving node"). On Linux a thread's nice value is inherited
 * by the threads it starts, so this is called before any worker thread exists.
 */
import { getPriority, setPriority } from 'node:os';

/** Lowers this process's priority to `nice` (0–19); never raises it, and never fails the command. */
export function lowerPriority(nice: number): void {
  try {
    if (getPriority() < nice) setPriority(nice);
  } catch {
    // A platform without priorities, or a sandbox that refuses: the command still runs, at normal priority.
  }
}
