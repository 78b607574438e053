/**
 * Posting lists (src/index/store/postings.ts): built sorted, split into shards under a size limit,
 * read back as packed lists (packed.ts), with an offset for every key or for the present keys only
 * (sparse): every test runs on both forms.
 */
import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PackedPostingsView, PostingsBuilder, U32List } from '../../../src/index/store/postings.js';
import { INDEX_FORMAT, loadGenerationAsync, type Manifest } from '../../../src/index/store/layout.js';
import { tempDir } from '../../helpers/tmp.js';

/** The lists of a key, decoded whole (and read by position, checked to agree). */
interface Lists {
  list(key: number): Iterable<number> & ArrayLike<number>;
  size(key: number): number;
}

async function roundTrip(t: Test, docs: number[][], keySpace: number, maxBytes?: number, sparse = false): Promise<{ view: Lists; shards: number }> {
  const dir = tempDir(t);
  const builder = new PostingsBuilder();
  for (const keys of docs) builder.add(keys);
  const { segments, shards } = builder.write(dir, 'p', keySpace, { maxBytes, sparse });
  const manifest: Manifest = { format: INDEX_FORMAT, generation: 1, created: '', catalogSeq: 0, segments, parts: { p: { shards } }, stats: {} };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const index = await loadGenerationAsync(dir);
  const view = new PackedPostingsView(index, 'p');
  const into = { scratch: new Uint32Array(4) };
  return {
    view: {
      list(key) {
        const list = view.list(key);
        const decoded = [...list.decode(into)];
        if (decoded.some((d, i) => list.at(i) !== d)) t.fail(`key ${key}: at() and decode() disagree`);
        return decoded;
      },
      size: (key) => view.size(key),
    },
    shards,
  };
}

/** Runs a test's body on dense and on sparse shards. */
function bothForms(name: string, body: (t: Test, sparse: boolean) => Promise<void>): void {
  for (const sparse of [false, true]) t.test(`${name} (${sparse ? 'sparse' : 'dense'})`, (t) => body(t, sparse));
}

bothForms('every key lists its documents in order, across shards', async (t, sparse) => {
  // 300 documents with pseudo-random distinct keys out of 50.
  const docs = Array.from({ length: 300 }, (_, d) => [...new Set(Array.from({ length: 8 }, (_, i) => (d * 7 + i * 13 + ((d * i) % 11)) % 50))].sort((a, b) => a - b));
  const expected = Array.from({ length: 50 }, (_, k) => docs.flatMap((keys, d) => (keys.includes(k) ? [d] : [])));
  for (const maxBytes of [undefined, 2048, 600]) {
    const { view, shards } = await roundTrip(t, docs, 50, maxBytes, sparse);
    if (maxBytes) t.ok(shards > 1, `${shards} shards under ${maxBytes} bytes`);
    for (let k = 0; k < 50; k++) {
      t.same([...view.list(k)], expected[k], `key ${k} (max ${maxBytes ?? 'default'})`);
      t.equal(view.size(k), expected[k].length);
    }
    t.equal(view.list(49).length, expected[49].length);
  }
});

bothForms('a skewed key space: full shards, filled in few passes, every list whole', async (t, sparse) => {
  // Key 0 in every document, keys 1..9 in a tenth of them, keys 10..999 in one each: the uniform
  // ranges of the old layout needed hundreds of shards to fit key 0's; cut by size, a few do.
  const docs = Array.from({ length: 2000 }, (_, d) => [0, ...(d % 10 === 0 ? [1 + ((d / 10) % 9)] : []), ...(d < 990 ? [10 + d] : [])]);
  const maxBytes = 4096;
  const { view, shards } = await roundTrip(t, docs, 1000, maxBytes, sparse);
  // Key 0's list (8,000 bytes) is a shard of its own; the 990 single-document keys cost 8 bytes each,
  // about 500 to a shard: 3 or 4 shards in all (uniform ranges under 4 KB would take 256).
  // (Shards are cut by their plain sizes: the limit is a bound, not a target.)
  t.ok(shards >= 3 && shards <= 4, `${shards} shards`);
  t.equal(view.size(0), 2000);
  t.same([...view.list(1)], docs.flatMap((keys, d) => (keys.includes(1) ? [d] : [])));
  for (let k = 10; k < 1000; k++) if (view.size(k) !== 1 || view.list(k)[0] !== k - 10) t.fail(`key ${k}`);
  t.same([...view.list(999)], [989]);
});

bothForms('a key whose list alone passes the limit gets a shard of its own', async (t, sparse) => {
  const docs = Array.from({ length: 500 }, (_, d) => [0, d % 3 === 0 ? 1 : 2]);
  const { view, shards } = await roundTrip(t, docs, 3, 1024, sparse);
  t.ok(shards >= 2, `${shards} shards`);
  t.equal(view.size(0), 500);
  t.equal(view.size(1) + view.size(2), 500);
});

bothForms('documents without keys and keys without documents', async (t, sparse) => {
  const { view } = await roundTrip(t, [[], [3], [], [0, 3]], 5, undefined, sparse);
  t.same([...view.list(3)], [1, 3]);
  t.same([...view.list(0)], [3]);
  t.same([...view.list(4)], []);
});

t.test('sparse: a sparse key space (2^20 keys, a few hundred with lists) is found through the key directory', async (t) => {
  const space = 2 ** 20;
  // Present keys: both ends of the space, runs of neighbours, keys on directory-run boundaries (2^4 apart at 2^20).
  const present = [0, 1, 15, 16, 17, 4095, 4096, space - 2, space - 1, ...Array.from({ length: 300 }, (_, i) => (i * 2654435761) % space)];
  const docs = Array.from({ length: 200 }, (_, d) => [...new Set(present.filter((_, i) => (i + d) % 7 === 0))].sort((a, b) => a - b));
  const expected = new Map<number, number[]>();
  docs.forEach((keys, d) => keys.forEach((k) => expected.set(k, [...(expected.get(k) ?? []), d])));
  for (const maxBytes of [undefined, 64 * 1024]) {
    const { view, shards } = await roundTrip(t, docs, space, maxBytes, true);
    let wrong = 0;
    for (const [k, list] of expected) if (JSON.stringify([...view.list(k)]) !== JSON.stringify(list) || view.size(k) !== list.length) wrong++;
    // Every neighbour of a present key, and keys far from any, that have no list.
    const absent = [...expected.keys()].flatMap((k) => [k - 1, k + 1, k + 16]).filter((k) => k >= 0 && k < space && !expected.has(k));
    for (const k of [...absent, 123_457, space - 3]) if (!expected.has(k) && view.size(k) !== 0) wrong++;
    t.equal(wrong, 0, `${expected.size} keys with lists and ${absent.length} neighbours without, ${shards} shard(s)`);
  }
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
