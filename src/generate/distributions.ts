/**
 * Sampling helpers on top of `Rng`: heavy-tailed popularity and weighted choices. Popularity in a
 * real catalog is Zipf-like (a few hits hold most of the favourites, a long tail holds the rest);
 * a Pareto draw gives the same tail shape without needing the catalog's size up front.
 */
import type { Rng } from './prng.js';

/**
 * A Pareto draw with minimum 1 and tail index `alpha`: P(X > x) = x^-alpha. With alpha near 1 the
 * top 1% of draws hold roughly half of the total, which is what Zipf's law with exponent 1 gives.
 */
export function pareto(rng: Rng, alpha: number): number {
  // 1 - float() is in (0, 1], so the power never divides by zero.
  return Math.pow(1 - rng.float(), -1 / alpha);
}

/** A cumulative-weight table for `pickWeighted`, built once at module load. */
export interface WeightTable<T> {
  readonly items: readonly T[];
  readonly cumulative: Float64Array;
}

/** Builds a table from `[item, weight]` pairs; weights need not sum to 1. */
export function weightTable<T>(pairs: ReadonlyArray<readonly [T, number]>): WeightTable<T> {
  const cumulative = new Float64Array(pairs.length);
  let sum = 0;
  pairs.forEach(([, w], i) => {
    sum += w;
    cumulative[i] = sum;
  });
  for (let i = 0; i < cumulative.length; i++) cumulative[i] /= sum;
  return { items: pairs.map(([item]) => item), cumulative };
}

/** A table whose item i has weight 1/(i+1)^s: Zipf over a fixed list, for reused phrases. */
export function zipfTable<T>(items: readonly T[], s = 1): WeightTable<T> {
  return weightTable(items.map((item, i) => [item, 1 / Math.pow(i + 1, s)] as const));
}

/**
 * A rank in [0, n) with P(rank) ∝ 1/(rank+1), from a uniform `u` in [0, 1): the inverse of the
 * harmonic CDF's continuous approximation — Zipf over n items without a table (load tests and
 * benches drawing ids by popularity).
 */
export function zipfRank(u: number, n: number): number {
  return Math.min(n - 1, Math.floor(Math.exp(u * Math.log(n + 1)) - 1));
}

/** Draws one item of a weight table (binary search over the cumulative weights). */
export function pickWeighted<T>(rng: Rng, table: WeightTable<T>): T {
  const u = rng.float();
  const c = table.cumulative;
  let lo = 0;
  let hi = c.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return table.items[lo];
}
