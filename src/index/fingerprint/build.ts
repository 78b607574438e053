/**
 * Build side of the fingerprint index: one document per recording (commontrack) with lyrics, whose
 * sampled gram buckets go into the posting lists (docs/index.md), numbered from the most popular.
 */
import path from 'node:path';
import type { Catalog } from '../../catalog/store.js';
import { kernel, GRAM, SAMPLE, bucketBitsFor } from '../kernel/kernel.js';
import { PostingsBuilder, U32List } from '../store/postings.js';
import { writeSegment, type SegmentEntry } from '../store/layout.js';

export class FingerprintBuilder {
  private readonly postings: PostingsBuilder;
  private readonly tracks = new U32List();
  private readonly commons = new U32List();
  private readonly seen = new Set<number>();
  private scratch = new Uint32Array(1 << 14);
  normalizedChars = 0;
  private readonly bits: number;

  /** `tracks`: the catalog's size, which sets the number of posting lists; `spill`: a file for the recorded keys (PostingsBuilder). */
  constructor(tracks: number, spill?: string) {
    this.bits = bucketBitsFor(tracks);
    this.postings = new PostingsBuilder(spill);
  }

  /** Whether a recording has its document already (its lyrics need no reading). */
  has(commontrackId: number): boolean {
    return this.seen.has(commontrackId);
  }

  /** Offers a track's normalised lyrics; the first track of each recording with lyrics represents it. */
  add(trackId: number, commontrackId: number, text: string): void {
    if (this.seen.has(commontrackId)) return;
    if (text.length < GRAM) return;
    this.seen.add(commontrackId);
    if (this.scratch.length < text.length) this.scratch = new Uint32Array(text.length * 2);
    this.postings.add(kernel.indexKeys(text, this.scratch, this.bits));
    this.tracks.push(trackId);
    this.commons.push(commontrackId);
    this.normalizedChars += text.length;
  }

  get docs(): number {
    return this.postings.docs;
  }

  write(dir: string): { segments: Record<string, SegmentEntry>; part: Record<string, number> } {
    const { segments, shards } = this.postings.write(dir, 'fp', 2 ** this.bits, { sparse: true });
    segments['fp-docs'] = writeSegment(dir, 'fp-docs.bin', { track: this.tracks.toArray(), common: this.commons.toArray() });
    return {
      segments,
      part: { docs: this.docs, entries: this.postings.entries, shards, gram: GRAM, sample: SAMPLE, bucketBits: this.bits },
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
 * Reads every track's lyrics from `catalog` (one read snapshot) and writes the fingerprint part.
 * Tracks are read from the most popular down (the chart index), so a recording's document is its
 * most popular track with lyrics and documents are numbered by popularity: among lyrics with equal
 * votes (a line thousands of songs share) the query's candidates are the most popular ones.
 */
export function buildFingerprintPart(catalog: Catalog, job: FingerprintPartJob): FingerprintPart {
  catalog.refresh();
  const catalogSeq = catalog.lastChange();
  const builder = new FingerprintBuilder(job.tracks, path.join(job.tmp, 'fp-keys.spill'));
  for (const id of catalog.tracksByPopularity()) {
    const track = catalog.getTrack(id);
    if (!track?.has_lyrics || builder.has(track.commontrack_id)) continue;
    const lyrics = catalog.getContent('lyrics', track.track_id);
    if (lyrics?.lyrics_body && !lyrics.instrumental) builder.add(track.track_id, track.commontrack_id, kernel.normalizeText(lyrics.lyrics_body));
  }
  return { ...builder.write(job.tmp), normalizedChars: builder.normalizedChars, catalogSeq };
}
