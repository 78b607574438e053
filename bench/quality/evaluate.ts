/**
 * Running one system over the query set: load it, warm it with a few queries, then send every
 * query (in a seeded shuffled order, so early timings stand for the whole set) with the system's
 * concurrency, timing each one from the bench's side. A system whose load fails is reported with
 * the reason instead of results. When the pace so far (checked every 40 answers) projects a run
 * longer than the time budget, it goes on with a balanced subsample that fits (fewer queries per
 * bucket), or stops when fewer than MIN_PER_BUCKET per bucket would fit.
 */
import { shuffled, streamRng } from '../lib/random.js';
import { subsample, type Query } from './queries.js';
import type { Hit, LoadReport, SearchSystem } from './systems/system.js';

export interface QueryOutcome {
  hits: Hit[];
  ms: number;
  timedOut: boolean;
  error?: string;
}

export interface SystemRun {
  name: string;
  settings: string;
  concurrency: number;
  status: 'ok' | 'failed' | 'not run';
  reason?: string;
  /** Queries sent (fewer than the set when the system ran on a subsample). */
  queryCount: number;
  subsamplePerBucket?: number;
  load?: LoadReport;
  /** Outcome of each query, by query id (absent unless status is ok). */
  outcomes?: QueryOutcome[];
  querySeconds?: number;
}

export interface RunOptions {
  seed: number;
  budgetMinutes: number;
  /** Queries timed first to project the whole run against the budget. */
  projectAfter?: number;
  warmup?: number;
  /** Set when `queries` is a subsample of this many per bucket (reported). */
  subsamplePerBucket?: number;
}

/** Fewer queries per bucket than this make figures too noisy to report. */
const MIN_PER_BUCKET = 10;

/**
 * Whether the rest of the run fits the budget at the pace so far; if not, the largest balanced
 * subsample (per bucket, below the current one) whose unanswered queries fit the time left, and the
 * new order (answered queries first, then the subsample's others), or a reason to stop.
 */
function fitBudget(
  queries: readonly Query[],
  order: readonly Query[],
  next: number,
  perBucket: number | undefined,
  elapsed: number,
  done: number,
  budget: number,
): { perBucket?: number; order: Query[]; why?: string; stop?: string } {
  const perQuery = elapsed / done;
  const projected = elapsed + perQuery * (order.length - next);
  if (projected <= budget) return { order: [...order] };
  const why = `${(perQuery * 1000).toFixed(0)} ms per query: ${order.length} queries would take ${(projected / 60).toFixed(0)} min (budget ${(budget / 60).toFixed(0)} min)`;
  const started = new Set(order.slice(0, next).map((q) => q.id));
  const most = Math.max(...[...new Set(queries.map((q) => q.bucket))].map((b) => queries.filter((q) => q.bucket === b).length));
  for (let k = Math.min(perBucket ?? most, most) - 1; k >= MIN_PER_BUCKET; k--) {
    const keep = new Set(subsample(queries, k).map((q) => q.id));
    const left = [...keep].filter((id) => !started.has(id)).length;
    if (elapsed + left * perQuery <= budget) {
      return { perBucket: k, order: [...order.slice(0, next), ...order.slice(next).filter((q) => keep.has(q.id))], why };
    }
  }
  return { order: [...order], stop: why };
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export async function runSystem(system: SearchSystem, queries: readonly Query[], options: RunOptions): Promise<SystemRun> {
  const base = { name: system.name, settings: system.settings, concurrency: system.concurrency, queryCount: queries.length, subsamplePerBucket: options.subsamplePerBucket };
  let load: LoadReport;
  try {
    console.error(`[${system.name}] loading…`);
    load = await system.load();
    console.error(`[${system.name}] ready: ${load.detail}`);
  } catch (e) {
    await system.close().catch(() => undefined);
    console.error(`[${system.name}] FAILED to load: ${message(e)}`);
    return { ...base, status: 'failed', reason: message(e) };
  }
  try {
    let order = shuffled(streamRng(options.seed, `order:${system.name}`), queries);
    let perBucket = options.subsamplePerBucket;
    for (const q of order.slice(0, options.warmup ?? 20)) await system.search(q.text).catch(() => undefined);

    const outcomes: QueryOutcome[] = new Array(queries.length);
    // The pace is checked after every `projectAfter` answers.
    const projectAfter = Math.min(options.projectAfter ?? 40, order.length);
    let next = 0;
    let done = 0;
    let stop: string | undefined;
    const started = performance.now();
    const worker = async () => {
      while (next < order.length && !stop) {
        const q = order[next++];
        const t0 = performance.now();
        try {
          const answer = await system.search(q.text);
          outcomes[q.id] = { hits: answer.hits, ms: performance.now() - t0, timedOut: answer.timedOut ?? false };
        } catch (e) {
          outcomes[q.id] = { hits: [], ms: performance.now() - t0, timedOut: false, error: message(e) };
        }
        done++;
        const elapsed = (performance.now() - started) / 1000;
        if (done >= projectAfter && done % projectAfter === 0 && !stop) {
          const fit = fitBudget(queries, order, next, perBucket, elapsed, done, options.budgetMinutes * 60);
          if (fit.stop) stop = fit.stop;
          else if (fit.perBucket !== undefined) {
            console.error(`[${system.name}] ${fit.why}: going on with ${fit.perBucket} per bucket`);
            perBucket = fit.perBucket;
            order = fit.order;
          }
        }
        if (done % Math.max(1, Math.floor(order.length / 10)) === 0) console.error(`[${system.name}] ${done}/${order.length} queries, ${elapsed.toFixed(0)} s`);
      }
    };
    await Promise.all(Array.from({ length: system.concurrency }, worker));
    const querySeconds = (performance.now() - started) / 1000;
    if (stop) return { ...base, status: 'not run', reason: stop, load };
    if (perBucket !== options.subsamplePerBucket && perBucket !== undefined) {
      // Only the subsample is scored: drop the answers to queries outside it.
      const keep = new Set(subsample(queries, perBucket).map((x) => x.id));
      for (const q of queries) if (!keep.has(q.id)) delete outcomes[q.id];
      base.subsamplePerBucket = perBucket;
      base.queryCount = keep.size;
    }
    const errors = outcomes.filter((o) => o.error);
    if (errors.length > queries.length / 2) {
      return { ...base, status: 'failed', reason: `${errors.length} of ${queries.length} queries failed, e.g. ${errors[0].error}`, load };
    }
    return { ...base, status: 'ok', load, outcomes, querySeconds };
  } finally {
    await system.close();
  }
}
