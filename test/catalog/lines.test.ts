import t from 'tap';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { linesOf } from '../../src/catalog/lines.js';
import { tempDir } from '../helpers/tmp.js';

const collect = async (file: string) => {
  const out: [number, string][] = [];
  for await (const { n, text } of linesOf(file)) out.push([n, text]);
  return out;
};

t.test('lines with numbers: CRLF, blank lines, no final newline, multi-byte characters across chunks', async (t) => {
  const dir = tempDir(t);
  const plain = path.join(dir, 'a.jsonl');
  writeFileSync(plain, 'one\r\n\n  \ntwo é\nthree');
  t.same(await collect(plain), [[1, 'one'], [4, 'two é'], [5, 'three']]);

  const long = Array.from({ length: 50_000 }, (_, i) => `línea ${i} ${'ü'.repeat(i % 40)}`);
  const gz = path.join(dir, 'b.data'); // gzip is detected from the bytes, not the name
  writeFileSync(gz, gzipSync(long.join('\n') + '\n'));
  const lines = await collect(gz);
  t.equal(lines.length, long.length);
  t.same(lines[49_999], [50_000, long[49_999]]);
  t.ok(lines.every(([n, text]) => text === long[n - 1]), 'every line intact across chunk boundaries');
});
