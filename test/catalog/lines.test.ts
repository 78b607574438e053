import t from 'tap';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { linesOf } from '../../src/catalog/lines.js';
import { hashOf, hashOfLine } from '../../src/catalog/parse.js';
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

t.test('each line comes with its bytes as read, and hashOfLine of them is hashOf of its text, valid UTF-8 or not', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'c.jsonl');
  const invalid = Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xff, 0x22, 0x7d]); // a broken pair, a surrogate, 0xff
  writeFileSync(file, Buffer.concat([Buffer.from('{"a":"ñandú 🎵"}\r\n'), invalid, Buffer.from('\n\uFEFF{"b":1}')]));
  const seen: { text: string; bytes: Buffer; hash: string }[] = [];
  for await (const { text, bytes } of linesOf(file)) seen.push({ text, bytes: Buffer.from(bytes), hash: hashOfLine(text, bytes) });
  t.same(seen.map((l) => l.text), ['{"a":"ñandú 🎵"}', invalid.toString('utf8'), '\uFEFF{"b":1}']);
  t.same(seen[0].bytes, Buffer.from('{"a":"ñandú 🎵"}'), 'no line end in the bytes');
  t.same(seen[1].bytes, invalid, 'invalid UTF-8: the bytes as they are');
  t.ok(seen[1].text.includes('\uFFFD'));
  for (const l of seen) t.equal(l.hash, hashOf(l.text), JSON.stringify(l.text));

  // A last line without a newline loses its carriage return too, as every other line does.
  const last = path.join(dir, 'd.jsonl');
  writeFileSync(last, 'one\r\ntwo\r');
  const lines: string[] = [];
  for await (const { text } of linesOf(last)) lines.push(text);
  t.same(lines, ['one', 'two']);
});

t.test('take: only the lines whose numbers it takes are read, with the same numbers; the count of lines includes every line', async (t) => {
  const dir = tempDir(t);
  const long = Array.from({ length: 30_000 }, (_, i) => (i % 7 === 3 ? '' : `line ${i + 1} ${'ß'.repeat(i % 300)}`));
  for (const [name, bytes] of [
    ['plain.jsonl', Buffer.from(long.join('\n'))],
    ['zipped.jsonl', gzipSync(long.join('\n') + '\n')],
  ] as const) {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    for (const [parts, part] of [[1, 0], [2, 0], [2, 1], [3, 2]]) {
      const progress = { bytesRead: 0, lines: 0 };
      const seen: [number, string][] = [];
      const take = (n: number) => Math.floor((n - 1) / 100) % parts === part;
      for await (const { n, text } of linesOf(file, progress, take)) seen.push([n, text]);
      const expected = long.map((text, i) => [i + 1, text] as [number, string]).filter(([n, text]) => take(n) && text !== '');
      t.same(seen, expected, `${name}: chunks of 100, part ${part} of ${parts}`);
      t.equal(progress.lines, 30_000, `${name}: every line counted, the last with or without its newline`);
    }
  }
  const tail = path.join(dir, 'tail.jsonl');
  writeFileSync(tail, 'a\nb\n   ');
  const progress = { bytesRead: 0 };
  t.same(await (async () => { const out = []; for await (const l of linesOf(tail, progress, (n) => n !== 2)) out.push(l.text); return out; })(), ['a']);
  t.equal((progress as { lines?: number }).lines, 3, 'a blank last line without its newline is a line');
});
