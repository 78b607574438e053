/**
 * The import's reading thread: reads and decompresses the files, splits lines, parses and validates
 * each one and hashes its text, and hands the main thread msgpack-packed batches (transferred, not
 * copied) to write. On two cores this halves an import's time: validation and LMDB writes overlap.
 *
 * Flow control: at most MAX_IN_FLIGHT batches wait for the main thread; the reader pauses until one
 * is acknowledged, so a slow disk write never lets memory grow.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { once } from 'node:events';
import { Packr } from 'msgpackr';
import { linesOf, type ReadProgress } from './lines.js';
import { dropEncodedBodies, precompute, syncedForms, type SyncedForms } from './derive.js';
import { hashOfLine, parseLine, type HashedRecord, type ParsedBatch, type ParseRequest } from './parse.js';
import { nameThisThread } from '../util/thread-name.js';

nameThisThread('refrain-parse');

const MAX_IN_FLIGHT = 3;
// Records (msgpackr's structure extension) make the main thread's unpacked objects fast-property
// objects: plain maps unpacked as dictionaries and made deriving and re-encoding twice as slow.
const packr = new Packr({ useRecords: true });
const port = parentPort!;
const { files, batch: batchSize } = workerData as ParseRequest;
let inFlight = 0;
port.on('message', () => inFlight--);

const progress: ReadProgress = { bytesRead: 0 };
let records: HashedRecord[] = [];
let out: ParsedBatch = emptyBatch();

function emptyBatch(): ParsedBatch {
  return { packed: new Uint8Array(0), count: 0, lines: 0, tracks: 0, rejections: [], bytesRead: 0 };
}

async function send(): Promise<void> {
  const packed = packr.pack(records);
  out.packed = new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength);
  out.count = records.length;
  out.bytesRead = progress.bytesRead;
  // A packed batch may share its ArrayBuffer with msgpackr's pool: copy before transferring.
  const own = out.packed.slice();
  out.packed = own;
  inFlight++;
  port.postMessage(out, [own.buffer]);
  records = [];
  out = emptyBatch();
  while (inFlight >= MAX_IN_FLIGHT) await once(port, 'message');
}

for (const file of files) {
  for await (const { n, text, bytes } of linesOf(file, progress)) {
    out.lines++;
    const parsed = parseLine(text);
    if (!parsed.ok) {
      out.rejections.push({ file, line: n, reason: parsed.reason });
      continue;
    }
    let synced: SyncedForms | undefined;
    if (parsed.record.type === 'track') {
      out.tracks++;
      // Derived values that cost time move off the writing thread.
      synced = syncedForms(parsed.record);
      precompute(parsed.record, synced);
      dropEncodedBodies(parsed.record, synced);
    }
    records.push({ record: parsed.record, hash: hashOfLine(text, bytes), ...(synced && { synced }) });
    if (records.length >= batchSize) await send();
  }
}
await send();
port.postMessage('done');
