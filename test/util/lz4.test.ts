import t from 'tap';
import { open } from 'lmdb';
import { dictionaryCompressor, Lz4DictionaryCompressor, type DictionaryCompressor } from '../../src/util/lz4.js';
import { nativeAddon, nativeStatus } from '../../src/util/native.js';
import { tempDir } from '../helpers/tmp.js';

/** A deterministic byte source (xorshift), for noise no compressor can shrink. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const verse = (i: number) => `hold on to the song, hold on to me, don't let the candle fade away ${i}\n`;

// Both compressors: the TypeScript one, and the native addon's (built by `npm ci` on every machine
// of the project; REFRAIN_NATIVE=0 leaves it out, and then only the TypeScript one is tested).
const compressors: [string, (dictionary: Uint8Array) => DictionaryCompressor][] = [['TypeScript', (d) => new Lz4DictionaryCompressor(d)]];
if (process.env.REFRAIN_NATIVE !== '0') compressors.push(['native', dictionaryCompressor]);

t.test('the native addon is built and loads', { skip: process.env.REFRAIN_NATIVE === '0' && 'REFRAIN_NATIVE=0' }, async (t) => {
  t.equal(nativeStatus(), 'native');
  t.equal(nativeAddon()!.version, 7, 'the version src/util/native.ts expects');
  t.notOk(dictionaryCompressor(Buffer.alloc(64)) instanceof Lz4DictionaryCompressor, 'dictionaryCompressor gives the native one');
  // Its arguments are checked on the native side: a wrong one is a JS error, never a write out of bounds.
  const native = new (nativeAddon()!.Lz4Dictionary)(Buffer.from('a dictionary'));
  const value = Buffer.from('hold on to the song, hold on to me, hold on to the song');
  const out = new Uint8Array(200);
  t.ok(native.compressInto(value, out, 4) > 0);
  t.equal(native.compressInto(value, new Uint8Array(10), 0), -1, 'no room: -1, nothing written past the output');
  t.equal(native.compressInto(value, out, 200), -1, 'at the very end of the output: -1');
  t.equal(native.compressInto(new Uint8Array(0), out, 200), -1, 'even an empty value is a block of one byte');
  t.equal(native.compressInto(new Uint8Array(0), out, 199), 1);
  t.throws(() => native.compressInto(value, out, 201), RangeError, 'an offset past the output');
  t.throws(() => native.compressInto(value, out, -1), RangeError);
  t.throws(() => native.compressInto(value, out, 1.5), RangeError);
  t.throws(() => native.compressInto('text' as never, out, 0), TypeError);
  t.throws(() => native.compressInto(value, new Uint16Array(100) as never, 0), TypeError);
  t.throws(() => new (nativeAddon()!.Lz4Dictionary)([1, 2, 3] as never), TypeError);
});

for (const [name, compressorFor] of compressors) t.test(`${name}:`, async (t) => {
  t.test('what it writes, lmdb-js reads back through its own decompression against the same dictionary', async (t) => {
    const dictionary = Buffer.from(Array.from({ length: 120 }, (_, i) => verse(i % 9)).join('').slice(-8192).padStart(8192, '~'));
    const env = open({ path: tempDir(t), maxDbs: 4 });
    t.teardown(() => env.close());
    // Written raw (the bytes as they are), read through a handle that decompresses with the dictionary.
    const raw = env.openDB<Buffer, number>({ name: 'v', keyEncoding: 'uint32', encoding: 'binary', compression: false });
    const read = env.openDB<Buffer, number>({ name: 'v', keyEncoding: 'uint32', encoding: 'binary', compression: { dictionary, threshold: 1 } as never });
    const compressor = compressorFor(dictionary);

    const values: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ...Array.from({ length: 20 }, (_, n): [string, Buffer] => [`${n + 1} bytes, under and around the 13 an LZ4 match needs`, Buffer.from('abababababababababababab'.slice(0, n + 1))]),
      ['the dictionary\'s own text', Buffer.from(verse(3) + verse(4) + verse(5))],
      ['a match that starts in the dictionary and runs on into the value', Buffer.from(dictionary.subarray(8000).toString() + 'and then something new entirely')],
      ['one byte repeated: a match longer than 15 + 255 (two length bytes)', Buffer.alloc(5000, 0x61)],
      ['noise: literals longer than 15 + 255, nothing to match', noise(3000, 7)],
      ['noise then repeats of it', Buffer.concat([noise(600, 3), noise(600, 3), noise(600, 3)])],
      ['a text of 300 KB: matches only within 65,535 bytes back', Buffer.from(Array.from({ length: 4000 }, (_, i) => verse(i) + noise(8, i).toString('hex')).join(''))],
      ['a first byte that looks like a compression header', Buffer.concat([Buffer.from([254, 255, 250]), Buffer.from(verse(1))])],
    ];
    env.transactionSync(() => values.forEach(([, v], i) => raw.putSync(i + 1, Buffer.from(compressor.compress(v)))));
    values.forEach(([what, v], i) => {
      const stored = raw.getBinary(i + 1)!;
      t.equal(stored[0], 254, `${what}: lmdb-js's header`);
      t.equal((stored[1] << 16) | (stored[2] << 8) | stored[3], v.length, `${what}: the value's length in it`);
      t.same(read.getBinary(i + 1), v, `${what}: read back whole`);
    });

    const text = Buffer.from(Array.from({ length: 40 }, (_, i) => verse(i % 9)).join(''));
    t.ok(compressor.compress(text).length < text.length / 5, 'a text made of the dictionary\'s passages shrinks to a fraction');
    const n = noise(2000, 11);
    t.ok(compressor.compress(n).length <= n.length + 4 + 8 + 1, 'noise grows by the header and length bytes only');
  });

  t.test('a value of 16 MiB or more takes the long header, and a dictionary longer than a match can reach is cut', async (t) => {
    // ~140 KB, not a whole number of 8-byte words (lmdb-js leaves out the last bytes).
    const dictionary = Buffer.from(Array.from({ length: 2000 }, (_, i) => verse(i)).join('') + 'odd');
    t.ok(dictionary.length > 65_535 && dictionary.length % 8 !== 0);
    const env = open({ path: tempDir(t), maxDbs: 4, mapSize: 2 ** 30 });
    t.teardown(() => env.close());
    const raw = env.openDB<Buffer, number>({ name: 'v', keyEncoding: 'uint32', encoding: 'binary', compression: false });
    const read = env.openDB<Buffer, number>({ name: 'v', keyEncoding: 'uint32', encoding: 'binary', compression: { dictionary, threshold: 1 } as never });
    const compressor = compressorFor(dictionary);
    const small = Buffer.from(verse(1999) + verse(1998));
    const big = Buffer.concat([noise(1 << 20, 5), Buffer.alloc((1 << 24) - (1 << 20) + 10, 0x62)]);
    env.transactionSync(() => {
      raw.putSync(1, Buffer.from(compressor.compress(small)));
      raw.putSync(2, Buffer.from(compressor.compress(big)));
    });
    t.ok(raw.getBinary(1)!.length < small.length / 2, 'the dictionary\'s last passages are matched');
    t.same(read.getBinary(1), small);
    const stored = raw.getBinary(2)!;
    t.equal(stored[0], 255, 'long header');
    t.equal(stored.readUIntBE(2, 6), big.length);
    t.ok(read.getBinary(2)!.equals(big), 'read back whole');
  });
});
