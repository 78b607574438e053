/**
 * Running one system over the query set: load it, warm it with a few queries, then send every
 * query (in a seeded shuffled order, so early timings stand for the whole set) with the system's
 * concurrency, timing each one from the bench's side. A system whose load fails is reported with
 * the reason instead of results. When its first queries project a run longer than the time budget,
 * it goes on with a balanced subsample that fits (fewer queries per bucket), or stops when fewer
 * than MIN_PER_BUCKET would fit.
 */
import { subsample, type Query } from './queries.js';
import { shuffled, streamRng } from './random.js';
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
        if (done === projectAfter) {
          const perQuery = elapsed / done;
          const projected = perQuery * order.length;
          if (projected > options.budgetMinutes * 60) {
            const buckets = new Set(queries.map((x) => x.bucket)).size;
            const fits = Math.floor((options.budgetMinutes * 60) / perQuery / buckets);
            const why = `${(perQuery * 1000).toFixed(0)} ms per query: ${order.length} queries would take ${(projected / 60).toFixed(0)} min (budget ${options.budgetMinutes} min)`;
            if (fits < MIN_PER_BUCKET) stop = why;
            else {
              console.error(`[${system.name}] ${why}: going on with ${fits} per bucket`);
              perBucket = fits;
              const keep = new Set(subsample(queries, fits).map((x) => x.id));
              order = [...order.slice(0, next), ...order.slice(next).filter((x) => keep.has(x.id))];
            }
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
