/**
 * Posting lists (src/index/store/postings.ts): built sorted, split into shards under a size limit,
 * read back as packed lists (packed.ts), with an offset for every key or for the present keys only
 * (sparse): every test runs on both forms.
 */
import t, { type Test } from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LEFT_OUT, PackedPostingsView, PostingsBuilder, U32List } from '../../../src/index/store/postings.js';
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
      size: (key) => view.list(key).length,
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

t.test('dense: the offsets cover the key space exactly, whatever the largest key with a list', async (t) => {
  // The builder counts keys as they come, in an array that grows by doubling past the largest key
  // (70,000 here: 131,072 entries); keys from there to the key space's end have no list.
  for (const keySpace of [70_001, 100_000, 300_000]) {
    const builder = new PostingsBuilder();
    builder.add([5, 70_000]);
    builder.add([70_000]);
    const { segments } = builder.write(tempDir(t), 'p', keySpace);
    t.equal(segments['p-0'].columns.offsets.length, keySpace + 1, `offsets for ${keySpace} keys`);
  }
});

t.test('documents without keys around a chunk boundary of the recorded entries keep their numbers', async (t) => {
  // Document 0 fills the first chunk (2^22 entries) but two; then empty documents, one whose three
  // keys straddle the boundary, empty ones again, and a last one.
  const chunk = 1 << 22;
  const space = chunk;
  const docs: number[][] = [Array.from({ length: chunk - 2 }, (_, k) => k), [], [], [0, 1, 2], [], [], [], [7], []];
  const { view } = await roundTrip(t, docs, space);
  t.same([...view.list(0)], [0, 3]);
  t.same([...view.list(2)], [0, 3]);
  t.same([...view.list(7)], [0, 7]);
  t.same([...view.list(chunk - 3)], [0]);
  t.same([...view.list(chunk - 1)], []);
});

t.test('a key past the key space, or a document after the write, is an error, not a wrong list', async (t) => {
  const builder = new PostingsBuilder();
  builder.add([1, 5]);
  t.throws(() => builder.write(tempDir(t), 'p', 3), /beyond the key space of 3/);
  t.throws(() => builder.add([0]), /no document once written/);
  t.throws(() => new PostingsBuilder().add([2 ** 29]), /past the 268435456 keys/);
});

bothForms('renumbered: documents added in one order and numbered in another, some left out, give ascending lists in the new numbers', async (t, sparse) => {
  const added = Array.from({ length: 400 }, (_, d) => [...new Set(Array.from({ length: 6 }, (_, i) => (d * 11 + i * 17 + ((d * i) % 13)) % 60))].sort((a, b) => a - b));
  // Every third document left out; the rest numbered in a shuffled order.
  const kept = added.map((_, d) => d).filter((d) => d % 3 !== 0);
  const order = [...kept].sort((a, b) => ((a * 7919) % 401) - ((b * 7919) % 401));
  const renumber = new Uint32Array(added.length).fill(LEFT_OUT);
  order.forEach((d, n) => (renumber[d] = n));
  for (const maxBytes of [undefined, 600]) {
    const dir = tempDir(t);
    const builder = new PostingsBuilder();
    for (const keys of added) builder.add(keys);
    const { segments, shards, entries } = builder.write(dir, 'p', 60, { maxBytes, sparse, renumber });
    const manifest: Manifest = { format: INDEX_FORMAT, generation: 1, created: '', catalogSeq: 0, segments, parts: { p: { shards } }, stats: {} };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const view = new PackedPostingsView(await loadGenerationAsync(dir), 'p');
    let wrong = 0;
    let total = 0;
    for (let k = 0; k < 60; k++) {
      const expected = order.flatMap((d, n) => (added[d].includes(k) ? [n] : []));
      total += expected.length;
      if (JSON.stringify([...view.list(k).decode({ scratch: new Uint32Array(4) })]) !== JSON.stringify(expected)) wrong++;
    }
    t.equal(wrong, 0, `every list (max ${maxBytes ?? 'default'}, ${shards} shard(s))`);
    t.equal(entries, total, 'the entries written leave out the documents left out');
  }
  t.throws(() => new PostingsBuilder().write(tempDir(t), 'p', 4, { renumber: new Uint32Array(2) }), /renumbering of 2 documents for 0/);
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

t.test('U32List grows past one chunk and reads back in order, kept in memory or spilled to a file', async (t) => {
  const chunk = 1 << 22;
  for (const [n, spill] of [[chunk + 1000, undefined], [2 * chunk + 1000, 'keys.spill'], [2 * chunk, 'exact.spill'], [10, 'small.spill']] as const) {
    const file = spill && path.join(tempDir(t), spill);
    const list = new U32List(file);
    // Pushed one by one, then the second half in uneven runs (pushAll across chunk ends).
    const half = n >> 1;
    for (let i = 0; i < half; i++) list.push(i * 3);
    for (let i = half; i < n; ) {
      const run = Math.min(n - i, 1 + ((i * 7919) % 300_000));
      list.pushAll(Uint32Array.from({ length: run }, (_, j) => (i + j) * 3));
      i += run;
    }
    t.equal(list.length, n);
    if (file) t.equal(existsSync(file), n > chunk, `spill file ${n > chunk ? 'written' : 'not needed'} for ${n} values`);
    for (let round = 0; round < 2; round++) {
      let wrong = 0;
      let count = 0;
      for (const chunk of list.eachChunk()) for (const v of chunk) if (v !== 3 * count++) wrong++;
      const whole = list.toArray();
      const wrongWhole = whole.filter((v, i) => v !== 3 * i).length;
      t.same([wrong, count, wrongWhole, whole.length], [0, n, 0, n], `read back whole and in order, twice (${n} values${file ? ', spilled' : ''})`);
    }
    list.dispose();
    t.equal(list.length, n, 'the length stays after dispose');
    if (file) t.notOk(existsSync(file), 'dispose removes the spill file');
  }
});

t.test('a builder spilling its recorded keys writes the same lists and removes its file', async (t) => {
  const dir = tempDir(t);
  // 4.5M keys: more than a chunk (2^22), so the spilling builder writes its file.
  const docs = Array.from({ length: 1_500_000 }, (_, d) => [d % 7, 7 + (d % 1000), 2000 + ((d * 31) % 50_000)]);
  const spill = path.join(dir, 'keys.spill');
  const lists = [new PostingsBuilder(), new PostingsBuilder(spill)].map((builder, b) => {
    for (const keys of docs) builder.add(keys);
    t.equal(builder.entries, 4_500_000);
    if (b === 1) t.ok(existsSync(spill), 'keys spilled while recording');
    const { segments } = builder.write(dir, `p${b}`, 60_000);
    return Object.values(segments).map((e) => readFileSync(path.join(dir, e.file)).toString('base64'));
  });
  t.same(lists[1], lists[0], 'the same shards, byte for byte');
  t.notOk(existsSync(spill), 'the spill file is gone once the lists are written');
});
