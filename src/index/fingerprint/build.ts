/**
 * Build side of the fingerprint index: one document per recording (commontrack) with lyrics, whose
 * sampled gram buckets go into the posting lists (docs/index.md), numbered from the most popular.
 */
import path from 'node:path';
import { everyId, type Catalog } from '../../catalog/store.js';
import { kernel, GRAM, ORDER_WORDS, SAMPLE, bucketBitsFor, lyricSketch } from '../kernel/kernel.js';
import { LEFT_OUT, PostingsBuilder, U32List } from '../store/postings.js';
import { writeSegment, type SegmentEntry } from '../store/layout.js';

/**
 * Lyrics are offered in any order (buildFingerprintPart reads them in id order), then numbered in
 * the order of popularity, each offer a recording's document.
 */
export class FingerprintBuilder {
  private readonly postings: PostingsBuilder;
  /** The lyrics offered, in the order offered: track, recording, normalised length. */
  private readonly offered = { tracks: new U32List(), commons: new U32List(), chars: new U32List(), order: new U32List() };
  private scratch = new Uint32Array(1 << 14);
  /** One offer's word-order sketch (kernel/order.ts), before it joins `offered.order`. */
  private readonly sketch = new Uint32Array(ORDER_WORDS);
  private readonly bits: number;
  private numbered: { renumber: Uint32Array; tracks: Uint32Array; commons: Uint32Array; order: Uint32Array; chars: number } | undefined;

  /** `tracks`: the catalog's size, which sets the number of posting lists; `spill`: a file for the recorded keys (PostingsBuilder). */
  constructor(tracks: number, spill?: string) {
    this.bits = bucketBitsFor(tracks);
    this.postings = new PostingsBuilder(spill);
  }

  /** Offers a recording's normalised lyrics (one track per recording); the offer's number, or -1 for a text shorter than a gram (no document). */
  offer(trackId: number, commontrackId: number, text: string): number {
    if (text.length < GRAM) return -1;
    if (this.scratch.length < text.length) this.scratch = new Uint32Array(text.length * 2);
    this.postings.add(kernel.indexKeys(text, this.scratch, this.bits));
    this.offered.tracks.push(trackId);
    this.offered.commons.push(commontrackId);
    this.offered.chars.push(text.length);
    this.sketch.fill(0);
    lyricSketch(text, this.sketch, 0);
    this.offered.order.pushAll(this.sketch);
    return this.offered.tracks.length - 1;
  }

  /** Numbers the documents: `order` gives every offer's number once, from the most popular down. */
  number(order: Iterable<number>): void {
    const tracks = this.offered.tracks.toArray();
    const commons = this.offered.commons.toArray();
    const chars = this.offered.chars.toArray();
    const sketches = this.offered.order.toArray();
    const renumber = new Uint32Array(tracks.length).fill(LEFT_OUT);
    const docTracks = new Uint32Array(tracks.length);
    const docCommons = new Uint32Array(tracks.length);
    const docOrder = new Uint32Array(tracks.length * ORDER_WORDS);
    let docs = 0;
    let total = 0;
    for (const o of order) {
      if (!(o >= 0 && o < tracks.length)) throw new Error(`no offer ${o}`);
      if (renumber[o] !== LEFT_OUT) throw new Error(`offer ${o} numbered twice`);
      renumber[o] = docs;
      docTracks[docs] = tracks[o];
      docOrder.set(sketches.subarray(o * ORDER_WORDS, (o + 1) * ORDER_WORDS), docs * ORDER_WORDS);
      docCommons[docs++] = commons[o];
      total += chars[o];
    }
    if (docs !== tracks.length) throw new Error(`${tracks.length - docs} of ${tracks.length} offers not numbered`);
    this.numbered = { renumber, tracks: docTracks, commons: docCommons, order: docOrder, chars: total };
  }

  /** Documents (recordings), once numbered. */
  get docs(): number {
    return this.numbered?.tracks.length ?? 0;
  }

  /** Characters of the documents' normalised lyrics, once numbered. */
  get normalizedChars(): number {
    return this.numbered?.chars ?? 0;
  }

  write(dir: string): { segments: Record<string, SegmentEntry>; part: Record<string, number> } {
    if (!this.numbered) throw new Error('the fingerprint part is written once its documents are numbered');
    const { renumber, tracks, commons, order } = this.numbered;
    const { segments, shards, entries } = this.postings.write(dir, 'fp', 2 ** this.bits, { sparse: true, renumber });
    segments['fp-docs'] = writeSegment(dir, 'fp-docs.bin', { track: tracks, common: commons, order });
    return {
      segments,
      part: { docs: this.docs, entries, shards, gram: GRAM, sample: SAMPLE, bucketBits: this.bits },
    };
  }
}

export interface FingerprintPartJob {
  dataDir: string;
  /** The generation directory being written. */
  tmp: string;
  /** The catalog's track count (sets the number of posting lists). */
  tracks: number;
}

export interface FingerprintPart {
  segments: Record<string, SegmentEntry>;
  part: Record<string, number>;
  normalizedChars: number;
  /** The catalog change this part was read at. */
  catalogSeq: number;
}

/**
 * Reads every track's lyrics from `catalog` (one read snapshot) and writes the fingerprint part,
 * reading in id order — the order the catalog stores records, so reads are sequential (with
 * readahead) however large the catalog:
 *   1. the tracks with lyrics (their records, in id order), then their order of popularity (the
 *      chart index, most popular first): each recording's candidate is its most popular one;
 *   2. the candidates' lyrics, in id order, normalised and keyed;
 *   3. a recording whose candidate's lyrics make no document (instrumental, or too short) tries
 *      its next tracks by popularity (few, read one by one);
 *   4. documents numbered by popularity, so a recording's document is its most popular track with
 *      lyrics and among lyrics with equal votes (a line thousands of songs share) the query's
 *      candidates are the most popular ones.
 */
export function buildFingerprintPart(catalog: Catalog, job: FingerprintPartJob): FingerprintPart {
  catalog.refresh();
  const catalogSeq = catalog.lastChange();
  const builder = new FingerprintBuilder(job.tracks, path.join(job.tmp, 'fp-keys.spill'));

  const ids = new U32List();
  const recordingIds = new U32List();
  for (const { value: track } of catalog.tracks.getRange(everyId())) {
    if (!track.has_lyrics) continue;
    ids.push(track.track_id);
    recordingIds.push(track.commontrack_id);
  }
  const tracks = ids.toArray();
  const recordings = recordingIds.toArray();
  const order = new U32List();
  for (const id of catalog.tracksByPopularity()) {
    // Track ids are spread about evenly, as the postings seek() is made for.
    const i = kernel.seek(tracks, id, 0);
    if (i < tracks.length && tracks[i] === id) order.push(i);
  }
  const byPopularity = order.toArray();
  const candidate = new Uint8Array(tracks.length);
  const claimed = new Set<number>();
  for (const i of byPopularity) {
    if (claimed.has(recordings[i])) continue;
    claimed.add(recordings[i]);
    candidate[i] = 1;
  }
  claimed.clear();

  const offerOf = new Int32Array(tracks.length).fill(-1);
  const offer = (i: number): boolean => {
    const lyrics = catalog.getContent('lyrics', tracks[i]);
    if (!lyrics?.lyrics_body || lyrics.instrumental) return false;
    offerOf[i] = builder.offer(tracks[i], recordings[i], kernel.normalizeText(lyrics.lyrics_body));
    return offerOf[i] >= 0;
  };
  const unresolved = new Set<number>();
  for (let i = 0; i < tracks.length; i++) if (candidate[i] && !offer(i)) unresolved.add(recordings[i]);
  if (unresolved.size > 0) {
    for (const i of byPopularity) if (!candidate[i] && unresolved.has(recordings[i]) && offer(i)) unresolved.delete(recordings[i]);
  }

  builder.number(
    (function* () {
      for (const i of byPopularity) if (offerOf[i] >= 0) yield offerOf[i];
    })(),
  );
  return { ...builder.write(job.tmp), normalizedChars: builder.normalizedChars, catalogSeq };
}
