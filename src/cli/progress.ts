/**
 * A one-line progress bar with a rate, drawn on stderr only when it is a terminal (or when asked),
 * so logs and pipes stay clean.
 */
export interface ProgressBar {
  update(done: number, fraction: number): void;
  finish(): void;
}

const NONE: ProgressBar = { update() {}, finish() {} };

export function progressBar(label: string, enabled = Boolean(process.stderr.isTTY)): ProgressBar {
  if (!enabled) return NONE;
  const started = performance.now();
  let last = 0;
  return {
    update(done, fraction) {
      const now = performance.now();
      if (now - last < 100) return; // redraw at most 10 times a second
      last = now;
      const f = Math.max(0, Math.min(1, fraction));
      const width = 30;
      const filled = Math.round(f * width);
      const rate = Math.round(done / Math.max((now - started) / 1000, 1e-3));
      const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
      process.stderr.write(`\r${label} ${bar} ${(f * 100).toFixed(0).padStart(3)}%  ${done.toLocaleString('en')} (${rate.toLocaleString('en')}/s)   `);
    },
    finish() {
      process.stderr.write('\n');
    },
  };
}
