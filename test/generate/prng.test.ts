import t from 'tap';
import { Rng, deriveSeed, mix32 } from '../../src/generate/prng.js';

t.test('the same seed gives the same sequence; another seed another one', async (t) => {
  const draw = (seed: number): number[] => {
    const rng = new Rng(seed);
    return Array.from({ length: 8 }, () => rng.u32());
  };
  t.same(draw(1), draw(1));
  t.notSame(draw(1), draw(2));
  t.ok(draw(0).every((n) => Number.isInteger(n) && n >= 0 && n < 2 ** 32));
});

t.test('draws stay in range and are roughly uniform', async (t) => {
  const rng = new Rng(99);
  const counts = new Array(10).fill(0);
  for (let i = 0; i < 100_000; i++) {
    const f = rng.float();
    if (f < 0 || f >= 1) t.fail(`float ${f}`);
    counts[Math.floor(f * 10)]++;
  }
  t.ok(counts.every((c) => c > 9_500 && c < 10_500), `deciles ${counts.join(' ')}`);
  const ints = new Set(Array.from({ length: 1000 }, () => rng.int(3, 5)));
  t.same([...ints].sort(), [3, 4, 5]);
  t.equal(rng.pick(['only']), 'only');
});

t.test('derived seeds differ by key and by stream', async (t) => {
  t.not(deriveSeed(1, 1, 0), deriveSeed(1, 2, 0));
  t.not(deriveSeed(1, 1, 0), deriveSeed(1, 1, 1));
  t.not(deriveSeed(1, 1, 0), deriveSeed(2, 1, 0));
  t.equal(deriveSeed(5, 6, 7), deriveSeed(5, 6, 7));
  t.not(mix32(0), 0);
});
