/**
 * The index from a thread that does not own the pool (an HTTP thread, docs/http-threads-plan.md §5).
 * Piscina's pool and the one work queue belong to the thread that made them, so a `RemoteIndex`
 * sends each call over a MessagePort to that thread, where `serveIndex` runs it through the
 * `IndexService` under the same queue, deadline and shedding as its own calls; the answer comes back
 * with its body transferred, not copied, and a refusal comes back as the same error (code, hint,
 * Retry-After). The fingerprint pre-check needs no hop: it reads the queue's snapshot in shared
 * memory, with the queue's own rule, and counts its refusals there.
 */
import type { MessagePort } from 'node:worker_threads';
import { RefrainError, type WireError } from '../../errors.js';
import type { CallKind, IndexFront } from './front.js';
import type { IndexService, IndexStats } from './pool.js';
import { QueueSnapshot, type QueueLimits } from './work-queue.js';
import type { MatchQuery, MatchResult } from '../text/search.js';
import { Asks } from '../../util/asks.js';

/** What a thread needs to build its `RemoteIndex`: sent to it (the port transferred). */
export interface RemoteIndexData {
  port: MessagePort;
  queue: { buffer: SharedArrayBuffer; limits: QueueLimits };
  threads: number;
}

type Request =
  | { t: 'call'; id: number; module: string; kind: CallKind; payload: unknown }
  | { t: 'match'; id: number; query: MatchQuery }
  | { t: 'stats'; id: number }
  | { t: 'late'; n: number };

type Reply = { t: 'done'; id: number; value: unknown } | { t: 'fail'; id: number; error: WireError };

/** Serves `index` to the thread at the other end of `port`; returns that thread's `RemoteIndexData`. */
export function serveIndex(index: IndexService, port: MessagePort, remote: MessagePort): RemoteIndexData {
  port.on('message', (request: Request) => {
    if (request.t === 'late') return index.countDeadline(request.n);
    const { id } = request;
    const answer =
      request.t === 'call' ? index.call(new URL(request.module), request.kind, request.payload)
      : request.t === 'match' ? index.match(request.query)
      : Promise.resolve(index.stats);
    const fail = (e: unknown) => port.postMessage({ t: 'fail', id, error: (e instanceof RefrainError ? e : new RefrainError('internal', 'internal error')).toWire() } satisfies Reply);
    answer.then((value) => {
      try {
        port.postMessage({ t: 'done', id, value } satisfies Reply, transferable(value));
      } catch (e) {
        // A value that cannot cross (never expected): the request is answered 500, not left waiting.
        fail(e);
      }
    }, fail);
  });
  // The owner's port does not keep its thread alive: the server's own lifetime does.
  port.unref();
  const snapshot = index.queueSnapshot;
  return { port: remote, queue: { buffer: snapshot.buffer, limits: snapshot.limits }, threads: index.threads };
}

/** A pool answer's body moves to the other thread when it owns its memory whole. */
function transferable(value: unknown): ArrayBuffer[] {
  const body = (value as { body?: unknown } | null)?.body;
  if (!(body instanceof Uint8Array)) return [];
  const { buffer } = body;
  return buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === buffer.byteLength ? [buffer] : [];
}

export class RemoteIndex implements IndexFront {
  readonly threads: number;
  private readonly port: MessagePort;
  private readonly snapshot: QueueSnapshot;
  /** Only calls in flight keep the thread alive. */
  private readonly asks = new Asks((busy) => (busy ? this.port.ref() : this.port.unref()));

  constructor(data: RemoteIndexData) {
    this.port = data.port;
    this.threads = data.threads;
    this.snapshot = new QueueSnapshot(data.queue.limits, data.queue.buffer);
    this.port.on('message', (reply: Reply) => {
      if (reply.t === 'done') this.asks.answer(reply.id, reply.value);
      else this.asks.fail(reply.id, RefrainError.fromWire(reply.error));
    });
    this.port.unref();
  }

  call(module: URL, kind: CallKind, payload: unknown): Promise<unknown> {
    return this.ask({ t: 'call', id: 0, module: module.href, kind, payload });
  }

  match(query: MatchQuery): Promise<MatchResult & { cached: boolean }> {
    return this.ask({ t: 'match', id: 0, query }) as Promise<MatchResult & { cached: boolean }>;
  }

  /** The owner's index stats (/readyz). */
  stats(): Promise<IndexStats> {
    return this.ask({ t: 'stats', id: 0 }) as Promise<IndexStats>;
  }

  admitFingerprint(chars: number): void {
    this.snapshot.refuseFingerprint(chars, Date.now());
  }

  countDeadline(n: number): void {
    this.port.postMessage({ t: 'late', n } satisfies Request);
  }

  private ask(request: Request & { id: number }): Promise<unknown> {
    return this.asks.ask((id) => this.port.postMessage({ ...request, id }));
  }
}
