/**
 * The pool worker (piscina): answers fingerprint, search and match tasks from the shared index.
 * It keeps views of the generations it was sent (the buffers are shared, never copied; a task
 * names its generation and carries the handle only when the worker asked for it) and reads
 * lyrics and names from the LMDB catalog, resetting its read snapshot at the start of every task
 * (docs/design.md §10: a worker parked in Atomics.wait would otherwise keep an old snapshot).
 */
import { workerData } from 'piscina';
import { Catalog } from '../catalog/store.js';
import { indexOf } from './layout.js';
import { NEEDS_INDEX, type PoolWorkerData, type TaskEnvelope, type TaskResult } from './task.js';
import { FingerprintSearcher } from './fingerprint.js';
import { TextSearcher } from './text-search.js';
import { normalizeText } from './normalize.js';
import { DeadlineError } from './deadline.js';

interface Engines {
  fingerprint: FingerprintSearcher;
  text: TextSearcher;
}

const { dataDir } = workerData as PoolWorkerData;
let catalog: Catalog | undefined;
const engines = new Map<number, Engines>();
/** Normalised lyrics by track id, dropped whenever the catalog changes. */
const lyricsCache = new Map<number, string>();
const LYRICS_CACHE = 4096;
let cacheSeq = -1;

function normalizedLyrics(trackId: number): string | undefined {
  const hit = lyricsCache.get(trackId);
  if (hit !== undefined) return hit;
  const body = catalog?.getContent('lyrics', trackId)?.lyrics_body;
  if (body === undefined) return undefined;
  const text = normalizeText(body);
  if (lyricsCache.size >= LYRICS_CACHE) lyricsCache.delete(lyricsCache.keys().next().value as number);
  lyricsCache.set(trackId, text);
  return text;
}

/** The tracks of a recording, most popular first (the indexed one when the group is gone). */
function versionsOf(commontrack: number, indexed: number): number[] {
  const tracks = catalog!.idsOf('commontrack', commontrack).map((id) => catalog!.getTrack(id)).filter((t) => t !== undefined);
  if (tracks.length === 0) return catalog!.getTrack(indexed) ? [indexed] : [];
  tracks.sort((a, b) => b.track_rating - a.track_rating || b.num_favourite - a.num_favourite || a.track_id - b.track_id);
  return tracks.map((t) => t.track_id);
}

/** A recording's popularity: the rating of its most popular track. */
function popularityOf(commontrack: number, indexed: number): number {
  const first = versionsOf(commontrack, indexed)[0];
  return first === undefined ? 0 : (catalog!.getTrack(first)?.track_rating ?? 0);
}

/**
 * A short line's words are looked up only when one of them is in at most this many lyrics: the
 * look-up then costs little (measured: up to 100 ms at 1M tracks for a line of common words, whose
 * matches are in the hundreds of thousands), and a line of common words held by thousands of songs
 * names none of them anyway.
 */
const WORD_LOOKUP_MAX = 5000;

/** Tracks whose lyrics hold every word of a text, one per recording, most popular first (the fingerprint's candidates for a short line). */
function lyricsHolding(text: TextSearcher) {
  return (words: string, limit: number, deadline: number): { track: number; commontrack: number }[] => {
    const rarest = text.rarestLyricsWord(words);
    if (rarest === 0 || rarest > WORD_LOOKUP_MAX) return [];
    return text
      .tracks({ words: { q_lyrics: words }, hasLyrics: true, groupCommontrack: true, sortTrackRating: 'desc', offset: 0, limit }, deadline)
      .ids.flatMap((id) => {
        const t = catalog!.getTrack(id);
        return t ? [{ track: id, commontrack: t.commontrack_id }] : [];
      });
  };
}

function enginesFor(envelope: TaskEnvelope): Engines | undefined {
  let e = engines.get(envelope.generation);
  if (!e && envelope.index) {
    catalog ??= Catalog.open(dataDir);
    const index = indexOf(envelope.index);
    const text = new TextSearcher(index, catalog);
    e = { text, fingerprint: new FingerprintSearcher(index, normalizedLyrics, versionsOf, popularityOf, lyricsHolding(text)) };
    engines.set(envelope.generation, e);
    // Keep the newest two generations: a task of the previous one may still arrive.
    for (const id of engines.keys()) if (engines.size > 2 && id !== envelope.generation) engines.delete(id);
  }
  return e;
}

export default function run(envelope: TaskEnvelope): TaskResult {
  // A task that waited in the queue past its deadline is not started: its client has its 503.
  if (Date.now() > envelope.deadline) throw new DeadlineError();
  const e = enginesFor(envelope);
  if (!e) return NEEDS_INDEX;
  catalog!.refresh();
  const seq = catalog!.lastChange();
  if (seq !== cacheSeq) {
    lyricsCache.clear();
    cacheSeq = seq;
  }
  const { task, deadline } = envelope;
  switch (task.op) {
    case 'warm':
      return { warmed: true };
    case 'fingerprint':
      return e.fingerprint.search(task.text, task.size, deadline);
    case 'tracks':
      return e.text.tracks(task.query, deadline);
    case 'artists':
      return e.text.artists(task.query, deadline);
    case 'match':
      return e.text.match(task.query, deadline, task.afterPrecise);
  }
}
