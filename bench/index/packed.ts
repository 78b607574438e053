/**
 * bench/index/packed: what the packed posting lists (src/index/store/packed.ts;
 * docs/index-postings-plan.md) save and what reading them costs, on a built generation: every list
 * of its `fp` (stored packed) and `tt` (stored plain) shards, in both forms, read the same ways in
 * the same run.
 *
 *   node dist/bench/index/packed.js -- [--data bench/.data/catalog-1000000] [--rounds 3] [--probes 200000]
 *
 * Figures: bytes of the postings plain (4 a posting) and packed (data and block columns); ns per
 * posting of a vote loop (one 16-bit vote per document, as the fingerprint's) over plain lists, over
 * packed lists read in place block by block (as the fingerprint search reads them) and over packed
 * lists decoded into a scratch array first; ns per probe of a list of ≥ 10,000 postings for the first position at or above a random
 * value (plain: the kernel's interpolated seek; packed: PackedList.seek). Nothing is written.
 */
import path from 'node:path';
import { benchArgs } from '../lib/args.js';
import { column, loadCurrentGeneration, type LoadedIndex } from '../../src/index/store/layout.js';
import { BLOCK, BLOCK_SHIFT, pack, PackedList, PackedReader } from '../../src/index/store/packed.js';
import { PackedPostingsView } from '../../src/index/store/postings.js';
import { seek } from '../../src/index/kernel/posting-ops.js';
import { DATA_DIR } from '../lib/paths.js';
import { Rng } from '../lib/random.js';

const { data, rounds, probes } = benchArgs({ data: path.join(DATA_DIR, 'catalog-1000000'), rounds: 3, probes: 200_000 });
const index = await loadCurrentGeneration(data);
if (!index) throw new Error(`${data} has no index generation: run refrain index --data ${data}`);
const rng = new Rng(3);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** Every non-empty list of a part, plain and packed. */
function listsOf(index: LoadedIndex, part: string): { plain: Uint32Array[]; packed: PackedList[]; packedBytes: number } {
  const plain: Uint32Array[] = [];
  const packed: PackedList[] = [];
  let packedBytes = 0;
  const stored = 'data' in index.manifest.segments[`${part}-0`].columns;
  const view = stored ? new PackedPostingsView(index, part) : undefined;
  for (let s = 0; s < index.manifest.parts[part].shards; s++) {
    const segment = `${part}-${s}`;
    const offsets = column(index, segment, 'offsets', 'u32');
    const first = column(index, segment, 'first', 'u32')[0];
    if (view) {
      for (let k = 0; k + 1 < offsets.length; k++) {
        if (offsets[k + 1] === offsets[k]) continue;
        const list = view.list(first + k);
        packed.push(list);
        plain.push(Uint32Array.from(list.decode({ scratch: new Uint32Array(list.length) })));
      }
      for (const name of ['data', 'bases', 'widths', 'starts']) packedBytes += index.manifest.segments[segment].columns[name].length * (name === 'data' || name === 'widths' ? 1 : 4);
    } else {
      const postings = column(index, segment, 'postings', 'u32');
      // A copy: pack() writes over what it packs, and the plain lists are read below.
      const columns = pack(postings.slice());
      const reader = new PackedReader(columns);
      packedBytes += columns.data.length + columns.bases.byteLength + columns.widths.length + columns.starts.byteLength;
      for (let k = 0; k + 1 < offsets.length; k++) {
        if (offsets[k + 1] === offsets[k]) continue;
        plain.push(postings.subarray(offsets[k], offsets[k + 1]));
        packed.push(new PackedList(reader, offsets[k], offsets[k + 1] - offsets[k]));
      }
    }
  }
  return { plain, packed, packedBytes };
}

for (const part of ['fp', 'tt']) {
  const { plain, packed, packedBytes } = listsOf(index, part);
  const count = plain.reduce((n, l) => n + l.length, 0);
  console.log(`${part}: ${plain.length.toLocaleString('en')} lists, ${count.toLocaleString('en')} postings: plain ${mb(count * 4)}, packed ${mb(packedBytes)} (${((packedBytes / count)).toFixed(2)} bytes a posting)`);
  const maxDoc = plain.reduce((m, l) => Math.max(m, l[l.length - 1]), 0);
  const votes = new Uint16Array(maxDoc + 1);
  const into = { scratch: new Uint32Array(1024) };
  const long = plain.map((_, i) => i).filter((i) => plain[i].length >= 10_000);
  const targets = Array.from({ length: probes }, () => {
    const i = rng.pick(long);
    const l = plain[i];
    return { i, value: l[0] + Math.floor(rng.float() * (l[l.length - 1] - l[0])) };
  });
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    for (const l of plain) for (let j = 0; j < l.length; j++) votes[l[j]] += 1;
    const votePlain = ((performance.now() - t0) * 1e6) / count;
    t0 = performance.now();
    for (const list of packed) {
      const l = list.decode(into);
      for (let j = 0; j < l.length; j++) votes[l[j]] += 1;
    }
    const voteDecoded = ((performance.now() - t0) * 1e6) / count;
    t0 = performance.now();
    for (const list of packed) voteInPlace(list, votes);
    const votePacked = ((performance.now() - t0) * 1e6) / count;
    let found = 0;
    t0 = performance.now();
    for (const { i, value } of targets) found += seek(plain[i], value, 0);
    const seekPlain = ((performance.now() - t0) * 1e6) / targets.length;
    let found2 = 0;
    t0 = performance.now();
    for (const { i, value } of targets) found2 += packed[i].seek(value, 0);
    const seekPacked = ((performance.now() - t0) * 1e6) / targets.length;
    if (found !== found2) throw new Error(`${part}: packed seeks found other positions`);
    console.log(`  round ${r + 1}: vote ${votePlain.toFixed(2)} ns/posting plain, ${votePacked.toFixed(2)} packed read in place, ${voteDecoded.toFixed(2)} packed decoded first; ` +
      `probe a long list ${seekPlain.toFixed(0)} ns plain, ${seekPacked.toFixed(0)} packed (${long.length.toLocaleString('en')} lists ≥ 10,000)`);
  }
}

/** One vote for each posting of a packed list, read in place block by block as the fingerprint search reads it. */
function voteInPlace({ reader, start, length }: PackedList, votes: Uint16Array): void {
  const { bases, widths, starts, u8, u16, u32 } = reader;
  const end = start + length;
  for (let b = start >>> BLOCK_SHIFT, last = (end - 1) >>> BLOCK_SHIFT; b <= last; b++) {
    const from = Math.max(start, b << BLOCK_SHIFT);
    const to = Math.min(end, (b + 1) << BLOCK_SHIFT);
    const view = widths[b] === 1 ? u8 : widths[b] === 2 ? u16 : u32;
    // Position p of block b is at starts[b] + (p - b * BLOCK) of its view.
    const shift = starts[b] - b * BLOCK;
    const base = bases[b];
    for (let p = from; p < to; p++) votes[base + view[shift + p]] += 1;
  }
}
