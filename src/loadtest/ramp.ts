/**
 * `--ramp`: the highest constant arrival rate the target holds within the latency objective.
 * Each step runs the open loop at one rate for `--ramp-step` and passes when its p99 stays within
 * `--slo`, at most 1% of its requests fail or time out, and the load generator kept up (it sent at
 * least 95% of the rate). Steps grow by half while they pass, up to `--rate`; after the first failing
 * step, the loop backs off to between the last rate that passed and the one that failed, halving the
 * gap each step (`refine` steps). The capacity is the highest rate that passed. A pause between steps
 * lets the target drain what the previous one left queued.
 */

export interface StepResult {
  rate: number;
  /** Requests per second actually sent. */
  sentPerSecond: number;
  p50: number;
  p99: number;
  /** Share of requests that failed or timed out, 0–1. */
  failedShare: number;
  pass: boolean;
  /** Why a step failed, in words. */
  reason?: string;
}

export interface RampOptions {
  from: number;
  max: number;
  sloMs: number;
  /** Back-off steps after the first failure. */
  refine?: number;
  /** Growth factor while steps pass. */
  factor?: number;
  /** Called before each step; false stops the search (the run's --duration is spent). */
  mayContinue?: () => boolean;
}

export interface RampResult {
  capacity: number | undefined;
  steps: StepResult[];
  /** The search stopped before it had bracketed the capacity (the ceiling --rate passed, or time ran out). */
  open: boolean;
}

/** Judge a measured step against the objective. */
export function judge(rate: number, measured: Omit<StepResult, 'rate' | 'pass' | 'reason'>, sloMs: number): StepResult {
  let reason: string | undefined;
  if (measured.sentPerSecond < rate * 0.95) reason = `the load generator sent ${Math.round(measured.sentPerSecond)}/s of ${rate}/s`;
  else if (measured.failedShare > 0.01) reason = `${(measured.failedShare * 100).toFixed(1)}% failed`;
  else if (measured.p99 > sloMs) reason = `p99 ${measured.p99.toFixed(1)} ms > ${sloMs} ms`;
  return { rate, ...measured, pass: reason === undefined, ...(reason ? { reason } : {}) };
}

export async function rampSearch(options: RampOptions, step: (rate: number) => Promise<StepResult>): Promise<RampResult> {
  const factor = options.factor ?? 1.5;
  const refine = options.refine ?? 3;
  const mayContinue = options.mayContinue ?? (() => true);
  const steps: StepResult[] = [];
  let best: number | undefined;
  let failed: number | undefined;
  let rate = Math.min(options.from, options.max);
  while (mayContinue()) {
    const r = await step(rate);
    steps.push(r);
    if (!r.pass) {
      failed = rate;
      break;
    }
    best = rate;
    if (rate >= options.max) return { capacity: best, steps, open: true };
    rate = Math.min(options.max, Math.ceil(rate * factor));
  }
  if (failed === undefined) return { capacity: best, steps, open: true };
  for (let k = 0; k < refine && mayContinue(); k++) {
    const low = best ?? 0;
    const mid = Math.round((low + failed) / 2);
    if (mid <= low || mid >= failed) break;
    const r = await step(mid);
    steps.push(r);
    if (r.pass) best = mid;
    else failed = mid;
  }
  return { capacity: best, steps, open: false };
}
