/** Posting lists (src/index/store/postings.ts): built sorted, split into shards under a size limit, read back as shared views. */
import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PostingsBuilder, PostingsView, U32List } from '../../../src/index/store/postings.js';
import { INDEX_FORMAT, loadGenerationAsync, type Manifest } from '../../../src/index/store/layout.js';
import { tempDir } from '../../helpers/tmp.js';

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
