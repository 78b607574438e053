/**
 * bench/index/packed: what packing an index generation's posting lists by frame of reference
 * (src/index/store/packed.ts; docs/index-postings-plan.md) would save, and what reading them costs,
 * on a real generation: every list of its `fp` and `tt` shards packed, then decoded whole and
 * probed, against the plain 32-bit lists read the same way in the same run.
 *
 *   node dist/bench/index/packed.js -- [--data bench/.data/catalog-1000000] [--rounds 3] [--probes 200000]
 *
 * Figures: bytes (postings, and the block columns the packed form adds; and of a byte-aligned
 * variant: offsets of 1, 2 or 4 bytes by block); ns per posting of a vote loop (one float per
 * document) over the plain lists and straight from the byte-aligned blocks; ns per posting to read
 * a whole list into a sum (plain) or to decode it into a scratch array and sum it (packed); ns per
 * probe of a list of ≥ 10,000 postings for the first position at or above a random value (plain:
 * the kernel's interpolated seek; packed: seekPacked). Nothing is written.
 */
import path from 'node:path';
import { benchArgs } from '../lib/args.js';
import { column, loadCurrentGeneration } from '../../src/index/store/layout.js';
import { BLOCK, packedWords, packList, seekPacked, unpackList, type PackedColumns } from '../../src/index/store/packed.js';
import { seek } from '../../src/index/kernel/posting-ops.js';
import { DATA_DIR } from '../lib/paths.js';
import { Rng } from '../lib/random.js';

const { data, rounds, probes } = benchArgs({ data: path.join(DATA_DIR, 'catalog-1000000'), rounds: 3, probes: 200_000 });
const index = await loadCurrentGeneration(data);
if (!index) throw new Error(`${data} has no index generation: run refrain index --data ${data}`);
const rng = new Rng(3);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

for (const part of ['fp', 'tt']) {
  const lists: Uint32Array[] = [];
  for (let s = 0; s < index.manifest.parts[part].shards; s++) {
    const offsets = column(index, `${part}-${s}`, 'offsets', 'u32');
    const postings = column(index, `${part}-${s}`, 'postings', 'u32');
    for (let k = 0; k + 1 < offsets.length; k++) if (offsets[k + 1] > offsets[k]) lists.push(postings.subarray(offsets[k], offsets[k + 1]));
  }
  const count = lists.reduce((n, l) => n + l.length, 0);
  let t0 = performance.now();
  const blocks = lists.reduce((n, l) => n + Math.ceil(l.length / BLOCK), 0);
  const columns: PackedColumns = {
    firsts: new Uint32Array(blocks), widths: new Uint8Array(blocks), starts: new Uint32Array(blocks),
    packed: new Uint32Array(lists.reduce((n, l) => n + packedWords(l), 0)),
  };
  const firstBlock = new Uint32Array(lists.length);
  let block = 0;
  let at = 0;
  lists.forEach((l, i) => {
    firstBlock[i] = block;
    at = packList(l, columns, block, at);
    block += Math.ceil(l.length / BLOCK);
  });
  const packSeconds = (performance.now() - t0) / 1000;
  const packedBytes = columns.packed.byteLength + columns.firsts.byteLength + columns.widths.byteLength + columns.starts.byteLength;
  console.log(`${part}: ${lists.length.toLocaleString('en')} lists, ${count.toLocaleString('en')} postings: plain ${mb(count * 4)}, ` +
    `packed ${mb(packedBytes)} (words ${mb(columns.packed.byteLength)}, block columns ${mb(packedBytes - columns.packed.byteLength)}), packed in ${packSeconds.toFixed(1)} s`);

  const scratch = new Uint32Array(lists.reduce((n, l) => Math.max(n, l.length), 0));
  const long = lists.map((l, i) => i).filter((i) => lists[i].length >= 10_000);
  const targets = Array.from({ length: probes }, () => {
    const i = rng.pick(long);
    const l = lists[i];
    return { i, value: l[0] + Math.floor(rng.float() * (l[l.length - 1] - l[0])) };
  });
  const aligned = byteAligned(lists);
  const maxDoc = lists.reduce((m, l) => Math.max(m, l[l.length - 1]), 0);
  const votes = new Float32Array(maxDoc + 1);
  console.log(`  byte-aligned offsets (1, 2 or 4 bytes a posting, by block): ${mb(aligned.bytes.byteLength + aligned.firsts.byteLength * 2 + aligned.kinds.byteLength)}`);
  for (let r = 0; r < rounds; r++) {
    // A vote loop as the fingerprint's (one float per document, read in random order), over the
    // plain lists and straight from the byte-aligned blocks (no scratch array).
    t0 = performance.now();
    for (const l of lists) for (let j = 0; j < l.length; j++) votes[l[j]] += 1;
    const votePlainNs = ((performance.now() - t0) * 1e6) / count;
    t0 = performance.now();
    for (let i = 0; i < lists.length; i++) voteAligned(aligned, aligned.listBlock[i], lists[i].length, votes);
    const voteAlignedNs = ((performance.now() - t0) * 1e6) / count;
    console.log(`  round ${r + 1}: vote ${votePlainNs.toFixed(2)} ns/posting plain, ${voteAlignedNs.toFixed(2)} byte-aligned`);
  }
  for (let r = 0; r < rounds; r++) {
    let sum = 0;
    t0 = performance.now();
    for (const l of lists) for (let j = 0; j < l.length; j++) sum += l[j];
    const plainNs = ((performance.now() - t0) * 1e6) / count;
    let sum2 = 0;
    t0 = performance.now();
    // A plain loop, as the plain read's: a sum updated inside a closure is a context slot, boxed
    // past 2^31, and would time that instead of the decoding (10–14 ns a posting in a first run).
    for (let i = 0; i < lists.length; i++) {
      const got = unpackList(columns, firstBlock[i], lists[i].length, scratch);
      for (let j = 0; j < got.length; j++) sum2 += got[j];
    }
    const packedNs = ((performance.now() - t0) * 1e6) / count;
    if (sum !== sum2) throw new Error(`${part}: packed lists decode to other values`);
    let found = 0;
    t0 = performance.now();
    for (const { i, value } of targets) found += seek(lists[i], value, 0);
    const seekPlainNs = ((performance.now() - t0) * 1e6) / targets.length;
    let found2 = 0;
    t0 = performance.now();
    for (const { i, value } of targets) found2 += seekPacked(columns, firstBlock[i], lists[i].length, value);
    const seekPackedNs = ((performance.now() - t0) * 1e6) / targets.length;
    if (found !== found2) throw new Error(`${part}: packed seeks found other positions`);
    console.log(`  round ${r + 1}: read a list ${plainNs.toFixed(2)} ns/posting plain, ${packedNs.toFixed(2)} packed; ` +
      `probe a long list ${seekPlainNs.toFixed(0)} ns plain, ${seekPackedNs.toFixed(0)} packed (${long.length.toLocaleString('en')} lists ≥ 10,000)`);
  }
}

/** Lists as blocks of offsets from each block's first, 1, 2 or 4 bytes each (the fewest that hold the block's span), aligned to their size. */
interface ByteAligned {
  firsts: Uint32Array;
  kinds: Uint8Array;
  starts: Uint32Array;
  bytes: Uint8Array;
  u16: Uint16Array;
  u32: Uint32Array;
  listBlock: Uint32Array;
}

function byteAligned(lists: Uint32Array[]): ByteAligned {
  const blocks = lists.reduce((n, l) => n + Math.ceil(l.length / BLOCK), 0);
  const firsts = new Uint32Array(blocks);
  const kinds = new Uint8Array(blocks);
  const starts = new Uint32Array(blocks);
  const listBlock = new Uint32Array(lists.length);
  // At most 4 bytes a posting and 3 of alignment a block; the bytes used are counted as written.
  const room = new Uint8Array(lists.reduce((n, l) => n + 4 * l.length, 0) + 4 * blocks);
  const view = new DataView(room.buffer);
  let at = 0;
  let block = 0;
  lists.forEach((l, i) => {
    listBlock[i] = block;
    for (let s = 0; s < l.length; s += BLOCK, block++) {
      const end = Math.min(l.length, s + BLOCK);
      const span = l[end - 1] - l[s];
      const k = span < 256 ? 1 : span < 65536 ? 2 : 4;
      at = Math.ceil(at / k) * k;
      firsts[block] = l[s];
      kinds[block] = k;
      starts[block] = at;
      for (let j = s; j < end; j++, at += k) {
        const d = l[j] - l[s];
        if (k === 1) room[at] = d;
        else if (k === 2) view.setUint16(at, d, true);
        else view.setUint32(at, d, true);
      }
    }
  });
  const bytes = room.subarray(0, at);
  return {
    firsts, kinds, starts, bytes, listBlock,
    u16: new Uint16Array(room.buffer, 0, room.byteLength >>> 1),
    u32: new Uint32Array(room.buffer, 0, room.byteLength >>> 2),
  };
}

function voteAligned(a: ByteAligned, block: number, count: number, votes: Float32Array): void {
  const { firsts, kinds, starts, bytes, u16, u32 } = a;
  for (let s = 0; s < count; s += BLOCK, block++) {
    const n = Math.min(BLOCK, count - s);
    const first = firsts[block];
    const at = starts[block];
    const k = kinds[block];
    if (k === 2) for (let i = 0, b = at >>> 1; i < n; i++) votes[first + u16[b + i]] += 1;
    else if (k === 1) for (let i = 0; i < n; i++) votes[first + bytes[at + i]] += 1;
    else for (let i = 0, b = at >>> 2; i < n; i++) votes[first + u32[b + i]] += 1;
  }
}
