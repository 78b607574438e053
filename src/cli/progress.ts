/**
 * A one-line progress bar with a rate, drawn on stderr only when it is a terminal (or when asked),
 * so logs and pipes stay clean.
 *
 * Redraws are throttled, so the last one during the work is usually stale: `finish` draws the end
 * state itself, 100% with the final count (issue 11 #18). While running, the percentage is rounded
 * down, so 100% only ever appears when the work is done.
 */
export interface ProgressBar {
  /** `done` items so far, `fraction` of the work (bytes read, items of `total`…), `total` items if known. */
  update(done: number, fraction: number, total?: number): void;
  /** The work is complete: draw 100% with the final count `done` and end the line. */
  finish(done: number): void;
  /** The work failed: end the line as it stands. */
  stop(): void;
}

const NONE: ProgressBar = { update() {}, finish() {}, stop() {} };
const WIDTH = 30;
const REDRAW_MS = 100;

export function progressBar(label: string, enabled = Boolean(process.stderr.isTTY)): ProgressBar {
  if (!enabled) return NONE;
  const started = performance.now();
  let last = -Infinity;
  let drawn = false;
  let ended = false;
  let knownTotal: number | undefined;

  const draw = (done: number, percent: number, now: number) => {
    const filled = Math.round((percent / 100) * WIDTH);
    const rate = Math.round(done / Math.max((now - started) / 1000, 1e-3));
    const count = knownTotal === undefined ? done.toLocaleString('en') : `${done.toLocaleString('en')}/${knownTotal.toLocaleString('en')}`;
    const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
    process.stderr.write(`\r${label} ${bar} ${String(percent).padStart(3)}%  ${count} (${rate.toLocaleString('en')}/s)   `);
    drawn = true;
  };

  return {
    update(done, fraction, total) {
      if (ended) return;
      if (total !== undefined) knownTotal = total;
      const now = performance.now();
      if (now - last < REDRAW_MS) return;
      last = now;
      draw(done, Math.min(99, Math.floor(Math.max(0, Math.min(1, fraction)) * 100)), now);
    },
    finish(done) {
      if (ended) return;
      ended = true;
      if (knownTotal !== undefined) knownTotal = done; // done is the total now
      draw(done, 100, performance.now());
      process.stderr.write('\n');
    },
    stop() {
      if (ended) return;
      ended = true;
      if (drawn) process.stderr.write('\n');
    },
  };
}
