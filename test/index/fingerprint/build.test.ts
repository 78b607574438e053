/**
 * The fingerprint part's builder (src/index/fingerprint/build.ts): lyrics offered in any order,
 * documents numbered in the order given (buildFingerprintPart gives popularity's).
 */
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FingerprintBuilder } from '../../../src/index/fingerprint/build.js';
import { kernel, bucketBitsFor } from '../../../src/index/kernel/kernel.js';
import { column, INDEX_FORMAT, loadGenerationAsync, type Manifest } from '../../../src/index/store/layout.js';
import { PackedPostingsView } from '../../../src/index/store/postings.js';
import { tempDir } from '../../helpers/tmp.js';

const text = (n: number) => kernel.normalizeText(`song ${n} has its own words ${'la '.repeat(n)} and a line about the number ${n * 7919}`);

t.test('offered in one order, numbered in another: the documents, their lists and their sizes follow the numbering', async (t) => {
  const builder = new FingerprintBuilder(100);
  // [track, recording, text], offered in id order; track 4's text is shorter than a gram.
  const offered: [number, number, string][] = [[2, 10, text(2)], [3, 30, text(3)], [4, 40, 'la'], [5, 50, text(5)], [6, 60, text(6)]];
  const offers = offered.map(([track, recording, words]) => builder.offer(track, recording, words));
  t.same(offers, [0, 1, -1, 2, 3], 'a text shorter than a gram is no offer');
  t.throws(() => builder.write(tempDir(t)), /once its documents are numbered/);
  t.throws(() => new FingerprintBuilder(100).number([0]), /no offer 0/);
  const twice = new FingerprintBuilder(100);
  twice.offer(1, 1, text(1));
  t.throws(() => twice.number([0, 0]), /offer 0 numbered twice/);
  // By popularity: track 5, then 2, 3, 6.
  builder.number([2, 0, 1, 3]);
  t.equal(builder.docs, 4);
  t.equal(builder.normalizedChars, [5, 2, 3, 6].reduce((sum, n) => sum + text(n).length, 0));

  const dir = tempDir(t);
  const { segments, part } = builder.write(dir);
  const manifest: Manifest = { format: INDEX_FORMAT, generation: 1, created: '', catalogSeq: 0, segments, parts: { fp: part }, stats: {} };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const index = await loadGenerationAsync(dir);
  t.same([...column(index, 'fp-docs', 'track', 'u32')], [5, 2, 3, 6], 'documents by popularity');
  t.same([...column(index, 'fp-docs', 'common', 'u32')], [50, 10, 30, 60]);
  const view = new PackedPostingsView(index, 'fp');
  const bits = bucketBitsFor(100);
  const keysOf = (n: number) => [...kernel.indexKeys(text(n), new Uint32Array(1024), bits)];
  const listOf = (key: number) => [...view.list(key).decode({ scratch: new Uint32Array(4) })];
  t.ok(keysOf(3).every((key) => listOf(key).includes(2)), 'track 3 is document 2 in each of its lists');
  t.ok(keysOf(5).every((key) => listOf(key).includes(0)), 'track 5 is document 0 in each of its lists');
  const lists = [2, 3, 5, 6].flatMap(keysOf).map(listOf);
  t.ok(lists.every((docs) => docs.length > 0 && docs.every((d, i) => d < 4 && (i === 0 || d > docs[i - 1]))), 'every list ascending, documents only');
  t.equal(part.entries, [5, 2, 3, 6].reduce((sum, n) => sum + keysOf(n).length, 0));
});
