/**
 * Names the calling thread for the operating system (Linux: /proc/thread-self/comm, at most 15
 * bytes), so `top -H`, `ps -L` and the benches' per-thread CPU (/proc/PID/task/TID/comm) tell
 * Refrain's threads apart: `refrain-index` (the index pool), `refrain-build`, `refrain-feeds`,
 * `refrain-parse`. The main thread keeps its name (`node`), which scripts may look for. Elsewhere
 * than Linux it does nothing.
 */
import { writeFileSync } from 'node:fs';

export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // not Linux, or /proc not mounted: threads keep their names
  }
}
