/**
 * Paired comparison: a baseline that ran only a subsample of the queries (too slow for all of them
 * within the time budget) is compared with Refrain on exactly those queries, from the per-query
 * answers each run leaves in the data directory (outcomes-<system>.json).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { QueryOutcome } from './evaluate.js';
import { score } from './metrics.js';
import { BUCKETS, type Bucket, type Query } from './queries.js';

export interface Paired {
  system: string;
  /** recall@1 of both systems per bucket, over the queries the baseline answered. */
  buckets: Partial<Record<Bucket, { n: number; refrain: number; baseline: number }>>;
}

/** Per-query answers of a system's last run, indexed by query id, or undefined when it left none. */
function outcomesOf(dir: string, system: string): { ids: Set<number>; byId: QueryOutcome[] } | undefined {
  const file = path.join(dir, `outcomes-${system}.json`);
  if (!existsSync(file)) return undefined;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as (QueryOutcome & { id: number })[];
  const byId: QueryOutcome[] = [];
  for (const o of saved) byId[o.id] = o;
  return { ids: new Set(saved.map((o) => o.id)), byId };
}

/** Refrain against each of `systems` on the baseline's own queries (only baselines that ran a subsample). */
export function pairWithRefrain(dir: string, queries: readonly Query[], systems: readonly string[]): Paired[] {
  const refrain = outcomesOf(dir, 'refrain');
  if (!refrain) return [];
  const out: Paired[] = [];
  for (const system of systems) {
    const baseline = outcomesOf(dir, system);
    if (!baseline || baseline.ids.size >= queries.length) continue;
    const shared = queries.filter((q) => baseline.ids.has(q.id) && refrain.ids.has(q.id));
    const options = { sweep: false };
    const ours = score(shared, refrain.byId, options).buckets;
    const theirs = score(shared, baseline.byId, options).buckets;
    const buckets: Paired['buckets'] = {};
    for (const b of BUCKETS) {
      const r = ours[b];
      const s = theirs[b];
      if (r && s) buckets[b] = { n: r.n, refrain: r.recall1, baseline: s.recall1 };
    }
    out.push({ system, buckets });
  }
  return out;
}
