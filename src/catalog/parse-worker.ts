/**
 * An import's reading thread: reads and decompresses the files, splits lines, parses and validates
 * each one and hashes its text, and hands the main thread msgpack-packed batches (transferred, not
 * copied) to write. Validation and LMDB writes overlap.
 *
 * An import has one or more of them (import.ts). The files' lines are cut into chunks of `batch`
 * lines, counted over all files, and thread `reader` of `readers` takes chunks reader, reader +
 * readers, …: each reads every line but decodes and parses only its own, and sends one batch per
 * chunk (empty when the chunk held only blank lines), in order; the writer applies the chunks in
 * order whichever thread made them.
 *
 * A track line is also made ready to put, when every content database it writes to has its
 * compression dictionary: its track record (without its album, which the writer completes) and its
 * content records encoded and compressed as their databases store them (Catalog.contentEncoders).
 * The writer then only puts those bytes, and the lyrics and analyses are not packed into the batch
 * as objects and unpacked again. A fresh catalog's first batch goes as the lines themselves: the
 * writer trains the dictionaries from it.
 *
 * Flow control: at most MAX_IN_FLIGHT batches wait for the main thread; the reader pauses until one
 * is acknowledged, so a slow disk write never lets memory grow.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { once } from 'node:events';
import { Packr } from 'msgpackr';
import { linesOf, type ReadProgress } from './lines.js';
import { dropEncodedBodies, precompute, storedContent, syncedForms, trackRecord, type SyncedForms } from './derive.js';
import { hashOfLine, parseLine, type EncodedTrack, type HashedRecord, type ParsedBatch, type ParseRequest } from './parse.js';
import type { Catalog, ContentEncoders, ContentKind } from './store.js';
import type { TrackInput } from './schema.js';
import { nameThisThread } from '../util/thread-name.js';
import { isoSeconds } from '../util/date.js';

nameThisThread('refrain-parse');

const MAX_IN_FLIGHT = 3;
// Records (msgpackr's structure extension) make the main thread's unpacked objects fast-property
// objects: plain maps unpacked as dictionaries and made deriving and re-encoding twice as slow.
const packr = new Packr({ useRecords: true });
const port = parentPort!;
const { files, batch: batchSize, dataDir, reader, readers } = workerData as ParseRequest;
let inFlight = 0;
port.on('message', () => inFlight--);

// Loaded only for an import that encodes here (a thread loads its modules again: a small import
// does without them).
const catalog: Catalog | undefined = dataDir === undefined ? undefined : (await import('./store.js')).Catalog.open(dataDir);
let encoders: ContentEncoders = {};

const progress: ReadProgress = { bytesRead: 0 };
/** The chunk being filled. */
let chunk = reader;
let records: (HashedRecord | EncodedTrack)[] = [];
let out: ParsedBatch = emptyBatch();
let time = isoSeconds(out.now);

/**
 * A new batch, with the time its tracks are written at. This thread's reads start again from the
 * catalog's latest commit (a snapshot held for the whole import would keep LMDB from reusing the
 * pages the writer frees), and its encoders follow the content databases' dictionaries and shared
 * structures as committed.
 */
function emptyBatch(): ParsedBatch {
  if (catalog) {
    catalog.refresh();
    encoders = catalog.contentEncoders(encoders);
  }
  return { chunk, packed: new Uint8Array(0), now: Date.now(), count: 0, lines: 0, tracks: 0, rejections: [], bytesRead: 0 };
}

/**
 * A track line made ready to put; or undefined, left to the writer: when one of its content
 * databases has no dictionary yet or one of its records a shape not yet shared there
 * (Catalog.contentEncoders), or when the catalog holds the track unchanged as this thread last saw
 * it (the writer, which sees the latest, then writes nothing, and encoding it would have been for
 * nothing: re-imports and a replica's full feeds are mostly such lines).
 */
function encoded(input: TrackInput, hash: string, forms: SyncedForms): EncodedTrack | undefined {
  if (!catalog || catalog.getTrack(input.track_id)?.hash === hash) return undefined;
  const track = trackRecord(input, undefined, hash, time);
  const stored = storedContent(input, track, forms);
  const content: EncodedTrack['content'] = {};
  for (const kind of Object.keys(stored) as ContentKind[]) {
    const record = stored[kind];
    if (!record) continue;
    const bytes = encoders[kind]?.encode(record);
    if (!bytes) return undefined;
    content[kind] = bytes;
  }
  return { track, content, hash };
}

/** Sends the chunk being filled, and starts this thread's next. */
async function send(): Promise<void> {
  const packed = packr.pack(records);
  // A packed batch may share its ArrayBuffer with msgpackr's pool: copied, to be transferred.
  const own = new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength).slice();
  out.packed = own;
  out.count = records.length;
  out.bytesRead = progress.bytesRead;
  inFlight++;
  port.postMessage(out, [own.buffer]);
  records = [];
  chunk += readers;
  while (inFlight >= MAX_IN_FLIGHT) await once(port, 'message');
  out = emptyBatch();
  time = isoSeconds(out.now);
}

/** Lines of the files before the one being read. */
let before = 0;
const chunkOf = (n: number): number => Math.floor((before + n - 1) / batchSize);
const mine = (n: number): boolean => chunkOf(n) % readers === reader;

for (const file of files) {
  for await (const { n, text, bytes } of linesOf(file, progress, mine)) {
    while (chunk < chunkOf(n)) await send();
    out.lines++;
    const parsed = parseLine(text);
    if (!parsed.ok) {
      out.rejections.push({ file, line: n, reason: parsed.reason });
      continue;
    }
    const hash = hashOfLine(text, bytes);
    if (parsed.record.type === 'track') {
      out.tracks++;
      // Derived values that cost time move off the writing thread.
      const synced = syncedForms(parsed.record);
      precompute(parsed.record, synced);
      const ready = encoded(parsed.record, hash, synced);
      if (ready) records.push(ready);
      else {
        dropEncodedBodies(parsed.record, synced);
        records.push({ record: parsed.record, hash, synced });
      }
    } else records.push({ record: parsed.record, hash });
  }
  before += progress.lines ?? 0;
}
// This thread's chunks up to the last line's, the last ones perhaps empty; then how many lines it counted.
while (chunk <= chunkOf(0)) await send();
await catalog?.close();
port.postMessage({ done: before });
