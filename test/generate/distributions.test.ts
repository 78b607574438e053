import t from 'tap';
import { pareto, pickWeighted, weightTable, zipfTable } from '../../src/generate/distributions.js';
import { Rng } from '../../src/generate/prng.js';

t.test('pareto draws are ≥ 1 with a heavy tail', async (t) => {
  const rng = new Rng(1);
  const draws = Array.from({ length: 100_000 }, () => pareto(rng, 1.2)).sort((a, b) => b - a);
  t.ok(draws.every((x) => x >= 1));
  // P(X > 10) = 10^-1.2 ≈ 6.3%.
  const above10 = draws.filter((x) => x > 10).length / draws.length;
  t.ok(Math.abs(above10 - 0.063) < 0.005, `P(X > 10) = ${above10}`);
});

t.test('weighted picks follow their weights', async (t) => {
  const rng = new Rng(2);
  const table = weightTable([['a', 3], ['b', 1]] as const);
  let a = 0;
  for (let i = 0; i < 40_000; i++) if (pickWeighted(rng, table) === 'a') a++;
  t.ok(Math.abs(a / 40_000 - 0.75) < 0.01);
  const zipf = zipfTable(['first', 'second', 'third']);
  const counts: Record<string, number> = { first: 0, second: 0, third: 0 };
  for (let i = 0; i < 30_000; i++) counts[pickWeighted(rng, zipf)]++;
  t.ok(counts.first > counts.second && counts.second > counts.third);
});
