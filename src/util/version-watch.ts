/**
 * Polls a version counter that another process may bump (key changes, catalog changes) and calls
 * `onChange` when it moves. In-memory caches use it to drop what went stale within `everyMs`.
 */
export interface VersionWatch {
  /** Look now instead of at the next tick. */
  check(): void;
  close(): void;
}

export function watchVersion(read: () => number, onChange: () => void, everyMs: number): VersionWatch {
  let version = read();
  const check = () => {
    const v = read();
    if (v !== version) {
      version = v;
      onChange();
    }
  };
  const timer = setInterval(check, everyMs);
  timer.unref();
  return { check, close: () => clearInterval(timer) };
}
