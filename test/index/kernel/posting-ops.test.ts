/** Operations over posting lists (src/index/kernel/posting-ops.ts): intersection by merge or galloping, weights carried through. */
import t from 'tap';
import { intersect, lowerBound, seek, weightAt } from '../../../src/index/kernel/posting-ops.js';

t.test('intersect: documents in every clause with their weights summed, by merge or by galloping', async (t) => {
  const evens = Uint32Array.from({ length: 400 }, (_, i) => 2 * i);
  const fewOdd = Uint32Array.from([3, 4, 10, 11, 500, 798]);
  const triples = Uint32Array.from({ length: 300 }, (_, i) => 3 * i);
  const weighted = (docs: Uint32Array, w: (doc: number) => number) => ({ docs, weights: Float32Array.from(docs, w) });
  const asPairs = (c: { docs: Uint32Array; weights: Float32Array | number }) => [...c.docs].map((d, i) => [d, weightAt(c, i)]);

  // Similar sizes (merge) and one list 67 times longer (galloping) agree.
  t.same(asPairs(intersect([{ docs: evens, weights: 1 }, { docs: triples, weights: 2 }], Infinity)),
    [...evens].filter((d) => d % 3 === 0 && d < 900).map((d) => [d, 3]));
  t.same(asPairs(intersect([{ docs: evens, weights: 1 }, { docs: fewOdd, weights: 2 }], Infinity)), [[4, 3], [10, 3], [500, 3], [798, 3]]);
  t.equal(typeof intersect([{ docs: evens, weights: 1 }, { docs: triples, weights: 2 }], Infinity).weights, 'number', 'single weights stay one number');
  // Per-document weights are carried through.
  t.same(asPairs(intersect([weighted(fewOdd, (d) => d), { docs: evens, weights: 0.5 }], Infinity)), [[4, 4.5], [10, 10.5], [500, 500.5], [798, 798.5]]);
  // A word repeated: the same list twice keeps every document with both weights.
  const again = evens.subarray(0, 400);
  t.same(asPairs(intersect([{ docs: evens, weights: 1 }, { docs: again, weights: 1 }], Infinity)).slice(0, 2), [[0, 2], [2, 2]]);
  t.equal(intersect([{ docs: evens, weights: 1 }, { docs: again, weights: 1 }], Infinity).docs.length, 400);
  t.same(asPairs(intersect([weighted(evens, () => 1), { docs: again, weights: 2 }], Infinity)).slice(0, 1), [[0, 3]]);
  t.same(intersect([{ docs: evens, weights: 1 }, { docs: new Uint32Array(0), weights: 1 }], Infinity).docs.length, 0);
});

t.test('seek: the position lowerBound finds, from an interpolated guess', async (t) => {
  // A seeded generator: lists dense and sparse, evenly spread and clustered, near the top of uint32.
  let state = 12345;
  const random = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
  let checked = 0;
  for (let round = 0; round < 300; round++) {
    const span = 1 + random(round % 2 ? 100_000 : 50);
    const base = round % 7 === 0 ? 2 ** 32 - 1 - span : round % 3 === 0 ? random(1000) : 0;
    const values = new Set<number>();
    const size = round % 10 === 0 ? random(4) : random(2000);
    for (let i = 0; i < size; i++) values.add(base + (round % 4 === 0 ? random(Math.max(1, span >> 6)) ** 2 % span : random(span)));
    const list = Uint32Array.from([...values].sort((a, b) => a - b));
    for (let k = 0; k < 100; k++) {
      const value = base + random(span + 2) - (k % 10 === 0 ? 1 : 0);
      const from = random(list.length + 2);
      if (seek(list, value, from) !== lowerBound(list, value, from)) t.fail(`seek(${value}, ${from}) in ${list.length} values from ${base}`);
      checked++;
    }
  }
  t.equal(checked, 30_000);
  t.equal(seek(new Uint32Array(0), 5, 0), 0);
  t.equal(seek(Uint32Array.from([1, 3, 5]), 4, 0), 2);
  t.equal(seek(Uint32Array.from([1, 3, 5]), 6, 1), 3);
  t.equal(seek(Uint32Array.from([1, 3, 5]), 0, 2), 2);
});
