/**
 * What the index service (pool.ts) and its workers (worker.ts) exchange: the tasks, their envelope
 * and the answers. Kept apart from worker.ts, whose module state only a worker thread may load.
 */
import type { IndexHandle } from '../store/layout.js';
import type { Lane } from './lane.js';
import type { FingerprintHit } from '../fingerprint/search.js';
import type { ArtistQuery, MatchQuery, MatchResult, SearchResult, TrackQuery } from '../text/search.js';

export type Task =
  | { op: 'warm' }
  | { op: 'fingerprint'; text: string; size: number }
  | { op: 'tracks'; query: TrackQuery }
  | { op: 'artists'; query: ArtistQuery }
  /** `afterPrecise`: the main thread ran the precise stage and found nothing. */
  | { op: 'match'; query: MatchQuery; afterPrecise?: boolean }
  /**
   * Work of another module loaded in the pool's workers (IndexService.call), which queries the
   * engines of the envelope's generation itself (worker.ts `enginesOf`): the API's methods that
   * answer from the index run there whole.
   */
  | { op: 'call'; payload: unknown; tail?: Uint8Array };

/** What the pool's workers are started with. */
export interface PoolWorkerData {
  dataDir: string;
  /** The lane the workers also take tasks from (lane.ts). */
  lane: Lane;
}

/** A task as it goes through the lane: its envelope, and the module answering it (a `call`). */
export interface LaneTask {
  envelope: TaskEnvelope;
  module?: string;
}

/**
 * A lane task's answer: the task's result, or what it threw (not a RefrainError: those are results).
 * A result's `body` text (an API method's rendered JSON) travels as the message's tail and comes out
 * as its UTF-8 bytes.
 */
export type LaneAnswer = { result: unknown } | { thrown: string };

/*
 * Lane messages: the head's length (4 bytes, little-endian), the head as UTF-8 JSON, then a tail of
 * raw bytes. A call's tail is its request's body (Task `call`.tail); an answer's is its result's
 * `body` text. Written straight into the slot; read from a copy of it.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function writeMessage(slot: Uint8Array, head: string, tail: Uint8Array | string | undefined): number {
  const written = encoder.encodeInto(head, slot.subarray(4));
  if (written.read < head.length) return -1;
  let n = 4 + written.written;
  new DataView(slot.buffer, slot.byteOffset, 4).setUint32(0, written.written, true);
  if (typeof tail === 'string') {
    const t = encoder.encodeInto(tail, slot.subarray(n));
    if (t.read < tail.length) return -1;
    n += t.written;
  } else if (tail) {
    if (n + tail.byteLength > slot.byteLength) return -1;
    slot.set(tail, n);
    n += tail.byteLength;
  }
  return n;
}

/** `bytes` must not be shared memory (TextDecoder refuses it): the tail is a view of it. */
function readMessage(bytes: Uint8Array): { head: unknown; tail: Buffer } {
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const head = JSON.parse(decoder.decode(bytes.subarray(4, 4 + length))) as unknown;
  return { head, tail: Buffer.from(bytes.buffer, bytes.byteOffset + 4 + length, bytes.byteLength - 4 - length) };
}

/** Writes a task into a lane slot: its length, or -1 when it does not fit. */
export function writeLaneTask(slot: Uint8Array, lane: LaneTask): number {
  const { task } = lane.envelope;
  if (task.op !== 'call' || !task.tail) return writeMessage(slot, JSON.stringify(lane), undefined);
  const head: LaneTask = { ...lane, envelope: { ...lane.envelope, task: { op: 'call', payload: task.payload } } };
  return writeMessage(slot, JSON.stringify(head), task.tail);
}

export function readLaneTask(bytes: Uint8Array): LaneTask {
  const { head, tail } = readMessage(bytes);
  const lane = head as LaneTask;
  if (lane.envelope.task.op === 'call' && tail.byteLength > 0) lane.envelope.task.tail = tail;
  return lane;
}

/** Writes an answer into its slot (over the task): its length, or -1 when it does not fit. */
export function writeLaneAnswer(slot: Uint8Array, answer: LaneAnswer): number {
  const result = 'result' in answer ? (answer.result as { body?: unknown } | null) : null;
  if (typeof result?.body !== 'string') return writeMessage(slot, JSON.stringify(answer), undefined);
  return writeMessage(slot, JSON.stringify({ result: { ...result, body: undefined }, bodyInTail: true }), result.body);
}

/** An answer read from a copy of its slot (`bytes` is kept: the body is a view of it). */
export function readLaneAnswer(bytes: Uint8Array): LaneAnswer {
  const { head, tail } = readMessage(bytes);
  const answer = head as LaneAnswer & { bodyInTail?: true };
  if (answer.bodyInTail && 'result' in answer) (answer.result as { body: unknown }).body = tail;
  return answer;
}

export interface TaskEnvelope {
  /** The generation to query (LoadedIndex.id). */
  generation: number;
  /**
   * Its shared buffers and manifest: sent only when a worker answered NEEDS_INDEX, because cloning
   * them costs every task tens of microseconds.
   */
  index?: IndexHandle;
  /** Date.now() after which the task gives up (a `deadline` RefrainError), even before it starts. */
  deadline: number;
  task: Task;
}

/** A worker's answer to a task naming a generation it holds no views of: resend with the handle. */
export const NEEDS_INDEX = 'needs-index';

export type TaskResult = FingerprintHit[] | SearchResult | MatchResult | { warmed: true } | typeof NEEDS_INDEX;

/**
 * The index's queries as an API method asks them: on the main thread through the pool
 * (IndexService), inside a pool worker straight from its engines.
 */
export interface IndexQueries {
  fingerprint(text: string, size: number): FingerprintHit[] | Promise<FingerprintHit[]>;
  searchTracks(query: TrackQuery): SearchResult | Promise<SearchResult>;
  searchArtists(query: ArtistQuery): SearchResult | Promise<SearchResult>;
}

