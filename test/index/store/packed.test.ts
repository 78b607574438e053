import t, { type Test } from 'tap';
import { BLOCK, packedWords, packList, seekPacked, unpackList, type PackedColumns } from '../../../src/index/store/packed.js';

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

/** Packs lists one after the other into shared columns, as a shard holds them. */
function packAll(t: Test, lists: number[][]): { columns: PackedColumns; blocks: number[] } {
  const blockCount = lists.reduce((n, l) => n + Math.ceil(l.length / BLOCK), 0);
  const words = lists.reduce((n, l) => n + packedWords(l), 0);
  const columns: PackedColumns = {
    firsts: new Uint32Array(blockCount), widths: new Uint8Array(blockCount), starts: new Uint32Array(blockCount), packed: new Uint32Array(words),
  };
  const blocks: number[] = [];
  let block = 0;
  let at = 0;
  for (const l of lists) {
    blocks.push(block);
    at = packList(l, columns, block, at);
    block += Math.ceil(l.length / BLOCK);
  }
  t.equal(at, words, 'packedWords counts the words packList writes');
  return { columns, blocks };
}

t.test('lists come back exactly: every length around the block size, every bit width, the largest values', async (t) => {
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
  ];
  // Each width from 1 to 32: a block whose largest offset needs exactly that many bits.
  for (let width = 1; width <= 32; width++) {
    const top = width === 32 ? 0xffff_ffff : 2 ** width - 1;
    lists.push([0, ...list(BLOCK - 2, 1, Math.max(1, Math.floor(top / BLOCK)), next).filter((v) => v < top), top]);
  }
  for (let i = 0; i < 40; i++) lists.push(list(next() % 2000, next() % 1_000_000, 1 + (next() % 5000), next));
  const { columns, blocks } = packAll(t, lists);
  const out = new Uint32Array(4096);
  lists.forEach((l, i) => {
    const got = [...unpackList(columns, blocks[i], l.length, out)];
    if (JSON.stringify(got) !== JSON.stringify(l)) t.fail(`list ${i} (${l.length} postings) decoded differently`);
  });
  t.pass(`${lists.length} lists`);
  t.ok(columns.packed.length * 4 < lists.reduce((n, l) => n + l.length, 0) * 4 * 0.8, 'smaller than 32 bits a posting');
});

t.test('seekPacked finds the first position at or above a value, as a scan would', async (t) => {
  const next = random(11);
  const lists = [[], [9], list(BLOCK, 100, 10, next), list(5 * BLOCK + 17, 3, 50, next), list(600, 0, 0, next, false)];
  const { columns, blocks } = packAll(t, lists);
  let probes = 0;
  lists.forEach((l, i) => {
    const targets = [0, 1, 2, 0xffff_ffff, ...l, ...l.map((v) => v + 1), ...l.map((v) => Math.max(0, v - 1))];
    for (const v of targets) {
      let want = l.findIndex((x) => x >= v);
      if (want < 0) want = l.length;
      const got = seekPacked(columns, blocks[i], l.length, v);
      probes++;
      if (got !== want) t.fail(`list ${i}: seek ${v} gave ${got}, the scan ${want}`);
    }
  });
  t.pass(`${probes} probes`);
});
