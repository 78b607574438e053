/**
 * Packed postings (src/index/store/packed.ts): lists come back exactly whatever their lengths,
 * widths and values, decoded whole, in part or by position, and seek agrees with a scan.
 */
import t from 'tap';
import { BLOCK, pack, PackedList, PackedReader } from '../../../src/index/store/packed.js';

/** A seeded generator of uint32s (xorshift), so a failure names a list that can be made again. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>>= 0);
  };
}

/** An ascending list of `n` values from `start`, gaps below `maxGap` (0: repeated values allowed). */
function list(n: number, start: number, maxGap: number, next: () => number, strict = true): number[] {
  const out: number[] = [];
  let v = start;
  for (let i = 0; i < n; i++) {
    out.push(v);
    v = Math.min(0xffff_ffff, v + (strict ? 1 : 0) + (maxGap ? next() % maxGap : 0));
  }
  return out;
}

/** Lists one after the other, packed as a shard holds them; each as a PackedList over the shard. */
function packAll(lists: number[][]): { packed: PackedList[]; bytes: number } {
  const columns = pack(Uint32Array.from(lists.flat()));
  const reader = new PackedReader(columns);
  let at = 0;
  const packed = lists.map((l) => {
    const list = new PackedList(reader, at, l.length);
    at += l.length;
    return list;
  });
  const bytes = columns.data.length + columns.bases.byteLength + columns.widths.byteLength + columns.starts.byteLength;
  return { packed, bytes };
}

t.test('lists come back exactly: every length around the block size, every byte width, the largest values, block boundaries inside lists', async (t) => {
  const next = random(7);
  const lists: number[][] = [
    [],
    [0],
    [0xffff_ffff],
    [0, 0xffff_ffff],
    list(BLOCK, 5, 3, next),
    list(BLOCK + 1, 5, 3, next),
    list(2 * BLOCK - 1, 0, 1000, next),
    list(1000, 7, 0, next, false),
    list(300, 0xffff_0000, 100, next),
    // Ranges of exactly 255/256 and 65,535/65,536 within a block: the edges of each width.
    [0, ...list(BLOCK - 2, 1, 2, next).filter((v) => v < 255), 255],
    [0, ...list(BLOCK - 2, 1, 2, next).filter((v) => v < 256), 256],
    [10, ...list(BLOCK - 2, 11, 500, next).filter((v) => v < 65_545), 65_545],
    [10, ...list(BLOCK - 2, 11, 500, next).filter((v) => v < 65_546), 65_546],
  ];
  for (let i = 0; i < 40; i++) lists.push(list(next() % 2000, next() % 1_000_000, 1 + (next() % 5000), next));
  for (let i = 0; i < 20; i++) lists.push(list(next() % 300, next() % 100, 1 + (next() % 3), next));
  const { packed, bytes } = packAll(lists);
  const into = { scratch: new Uint32Array(1) };
  lists.forEach((l, i) => {
    const whole = [...packed[i].decode(into)];
    if (JSON.stringify(whole) !== JSON.stringify(l)) t.fail(`list ${i} (${l.length} postings) decoded differently`);
    const part = Math.floor(l.length / 3);
    if (JSON.stringify([...packed[i].decode(into, part)]) !== JSON.stringify(l.slice(0, part))) t.fail(`list ${i}: its first ${part} decoded differently`);
    if (l.some((v, j) => packed[i].at(j) !== v)) t.fail(`list ${i}: at() differs`);
  });
  t.pass(`${lists.length} lists`);
  t.ok(bytes > 0);
});

t.test('a block takes the fewest bytes that hold its range: dense lists 1 byte a posting, sparse ones 2 or 4', async (t) => {
  const n = 10 * BLOCK;
  // Steps of 2 (a range of 254 a block), 500 (63,500) and 600 (76,200); each block costs 9 bytes besides.
  const bytes = (step: number) => packAll([Array.from({ length: n }, (_, i) => 7 + i * step)]).bytes;
  const overhead = 10 * 9;
  t.equal(bytes(2), n + overhead, '1 byte a posting');
  t.equal(bytes(500), 2 * n + overhead, '2 bytes a posting');
  t.equal(bytes(600), 4 * n + overhead, '4 bytes a posting');
});

t.test('seek finds the first position at or after a start whose value is at least a value, as a scan would', async (t) => {
  const next = random(11);
  const lists = [[], [9], list(BLOCK, 100, 10, next), list(5 * BLOCK + 17, 3, 50, next), list(600, 0, 0, next, false), list(3000, 0, 70_000, next), list(40 * BLOCK + 3, 5, 2, next)];
  const { packed } = packAll(lists);
  let probes = 0;
  lists.forEach((l, i) => {
    const targets = [0, 1, 2, 0xffff_ffff, ...l, ...l.map((v) => v + 1), ...l.map((v) => Math.max(0, v - 1))];
    for (const v of targets) {
      for (const from of new Set([0, 1, Math.floor(l.length / 3), Math.floor(l.length / 2), l.length - 1, l.length].filter((f) => f >= 0 && f <= l.length))) {
        let want = l.findIndex((x, j) => j >= from && x >= v);
        if (want < 0) want = l.length;
        const got = packed[i].seek(v, from);
        probes++;
        if (got !== want) t.fail(`list ${i}: seek ${v} from ${from} gave ${got}, the scan ${want}`);
      }
    }
  });
  t.pass(`${probes} probes`);
});
