/**
 * Operations over posting lists (src/index/kernel/posting-ops.ts): intersection by merge or galloping,
 * weights carried through; stored (packed) lists read as arrays would be.
 */
import t from 'tap';
import { contains, intersect, lowerBound, seek, union, VoteBoard, weightAt, type Clause } from '../../../src/index/kernel/posting-ops.js';
import { PackedList } from '../../../src/index/store/packed.js';

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

t.test('stored lists (packed) as clauses: the same intersections, unions, memberships and votes as arrays', async (t) => {
  let state = 777;
  const random = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
  /** A sorted list of about `size` distinct documents below `span`, clustered or spread. */
  const listOf = (size: number, span: number) => {
    const docs = new Set<number>();
    for (let i = 0; i < size; i++) docs.add(random(4) === 0 ? random(Math.min(span, 300)) : random(span));
    return Uint32Array.from([...docs].sort((a, b) => a - b));
  };
  const pairs = (c: { docs: Uint32Array; weights: Float32Array | number }) => [...c.docs].map((d, i) => [d, Math.round(weightAt(c, i) * 1000)]);
  let checked = 0;
  for (let round = 0; round < 200; round++) {
    const span = 1 + random(round % 3 === 0 ? 70_000 : 5_000);
    // Sizes that merge (similar) and gallop (one 16 or more times longer), empty and single ones.
    const sizes = [random(3) === 0 ? random(3) : random(200), random(2) === 0 ? random(200) : 1000 + random(8000), random(400)];
    const arrays = sizes.map((n) => listOf(n, span));
    const stored = arrays.map((a) => PackedList.of(a));
    const weights = [1, 2.5, 0.25];
    const asArrays: Clause[] = arrays.map((docs, i) => ({ docs, weights: weights[i] }));
    const asStored: Clause[] = stored.map((docs, i) => ({ docs, weights: weights[i] }));
    const mixed: Clause[] = asStored.map((c, i) => (i === 1 ? asArrays[i] : c));
    const want = pairs(intersect(asArrays, Infinity));
    for (const clauses of [asStored, mixed, asStored.slice(0, 2)]) {
      const got = intersect(clauses, Infinity);
      t.ok(got.docs instanceof Uint32Array, 'an intersection is decoded');
      const expected = clauses.length === 3 ? want : pairs(intersect(asArrays.slice(0, 2), Infinity));
      if (JSON.stringify(pairs(got)) !== JSON.stringify(expected)) t.fail(`round ${round}: intersection of ${sizes.join(', ')}`);
    }
    // Unions: stored list into an array clause and into a stored one, then intersected with per-document weights.
    const merged = union(union(asStored[0], stored[1], 2), stored[2], 3);
    const naive = new Map<number, number>();
    arrays.forEach((a, i) => a.forEach((d) => naive.set(d, (naive.get(d) ?? 0) + [1, 2, 3][i])));
    const expectedUnion = [...naive].sort((a, b) => a[0] - b[0]).map(([d, w]) => [d, w * 1000]);
    if (JSON.stringify(pairs({ docs: merged.docs as Uint32Array, weights: merged.weights })) !== JSON.stringify(expectedUnion)) t.fail(`round ${round}: union`);
    const weighted = intersect([merged, asStored[1]], Infinity);
    if (JSON.stringify(pairs(weighted)) !== JSON.stringify(expectedUnion.filter(([d]) => arrays[1].includes(d)).map(([d, w]) => [d, w + 2500]))) t.fail(`round ${round}: weighted intersection`);
    // Membership, for every document of the span's start and each list's own.
    for (const d of [...arrays[1], 0, 1, span - 1, span]) if (contains(stored[1], d) !== arrays[1].includes(d)) t.fail(`round ${round}: contains ${d}`);
    checked++;
  }
  t.equal(checked, 200);
  // A word repeated: the same stored list twice keeps every document with both weights, undecoded.
  const list = PackedList.of([3, 9, 27]);
  const twice = intersect([{ docs: list, weights: 1 }, { docs: new PackedList(list.reader, 0, 3), weights: 2 }], Infinity);
  t.same(pairs(twice), [[3, 3000], [9, 3000], [27, 3000]]);

  // Votes: rarest lists first within the budget, a bonus only to documents with votes.
  const board = new VoteBoard(100);
  const lists = [PackedList.of([1, 2, 3]), PackedList.of([2, 3, 50, 60]), PackedList.of(Array.from({ length: 90 }, (_, i) => i))];
  board.add({ lists, grams: 4 }, 10, Infinity);
  t.equal(board.readShare, 0.5, 'the third list is past the budget');
  t.same([1, 2, 3, 50, 60].map((d) => board.share(d)), [0.25, 0.5, 0.5, 0.25, 0.25]);
  board.bonus(PackedList.of([1, 70]), 1);
  t.same([board.share(1), board.share(70)], [1.25, 0]);
  t.same(board.top(2, 0.3), [1, 2]);
});
