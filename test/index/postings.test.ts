/** Posting lists: built sorted, split into shards under a size limit, read back as shared views. */
import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PostingsBuilder, PostingsView, U32List } from '../../src/index/store/postings.js';
import { intersect, weightAt } from '../../src/index/kernel/posting-ops.js';
import { INDEX_FORMAT, loadGenerationAsync, type Manifest } from '../../src/index/store/layout.js';
import { tempDir } from '../helpers/tmp.js';

async function roundTrip(t: Test, docs: number[][], keySpace: number, maxBytes?: number) {
  const dir = tempDir(t);
  const builder = new PostingsBuilder();
  for (const keys of docs) builder.add(keys);
  const { segments, keysPerShard, shards } = builder.write(dir, 'p', keySpace, maxBytes);
  const manifest: Manifest = { format: INDEX_FORMAT, generation: 1, created: '', catalogSeq: 0, segments, parts: { p: { keysPerShard, shards } }, stats: {} };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return { view: new PostingsView(await loadGenerationAsync(dir), 'p'), shards };
}

t.test('every key lists its documents in order, across shards', async (t) => {
  // 300 documents with pseudo-random distinct keys out of 50.
  const docs = Array.from({ length: 300 }, (_, d) => [...new Set(Array.from({ length: 8 }, (_, i) => (d * 7 + i * 13 + ((d * i) % 11)) % 50))].sort((a, b) => a - b));
  const expected = Array.from({ length: 50 }, (_, k) => docs.flatMap((keys, d) => (keys.includes(k) ? [d] : [])));
  for (const maxBytes of [undefined, 2048, 600]) {
    const { view, shards } = await roundTrip(t, docs, 50, maxBytes);
    if (maxBytes) t.ok(shards > 1, `${shards} shards under ${maxBytes} bytes`);
    for (let k = 0; k < 50; k++) {
      t.same([...view.list(k)], expected[k], `key ${k} (max ${maxBytes ?? 'default'})`);
      t.equal(view.size(k), expected[k].length);
    }
    t.equal(view.list(49).length, expected[49].length);
  }
});

t.test('documents without keys and keys without documents', async (t) => {
  const { view } = await roundTrip(t, [[], [3], [], [0, 3]], 5);
  t.same([...view.list(3)], [1, 3]);
  t.same([...view.list(0)], [3]);
  t.same([...view.list(4)], []);
});

t.test('U32List grows past one chunk and reads back in order', async (t) => {
  const list = new U32List();
  const n = (1 << 22) + 1000;
  for (let i = 0; i < n; i++) list.push(i * 3);
  t.equal(list.length, n);
  const next = list.reader();
  let ok = true;
  for (let i = 0; i < n; i++) if (next() !== i * 3) ok = false;
  t.ok(ok, 'reader returns every value in order');
  let count = 0;
  list.forEach(() => count++);
  t.equal(count, n);
});

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
