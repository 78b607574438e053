/**
 * What the HTTP side uses of the index: the pool's calls under its queue, the matcher, and the
 * pre-check that refuses a fingerprint before its body is read. `IndexService` (pool.ts) is one, on
 * the thread that owns the pool; `RemoteIndex` (remote.ts) is one on any other thread, answering
 * through the owner.
 */
import type { MatchQuery, MatchResult } from '../text/search.js';

/**
 * Work for a call: the kind of task the queue estimates its run time by, and for a fingerprint its
 * text's length in characters (at most: the body's bytes before it is parsed).
 */
export type CallKind = { kind: 'fingerprint'; chars: number } | { kind: 'tracks' | 'artists' };

export interface IndexFront {
  /** Runs `payload` in a pool worker through `module` (IndexService.call). */
  call(module: URL, kind: CallKind, payload: unknown): Promise<unknown>;
  /** The matcher (IndexService.match). */
  match(query: MatchQuery): Promise<MatchResult & { cached: boolean }>;
  /** Throws the 503 a fingerprint of about `chars` characters would get now. */
  admitFingerprint(chars: number): void;
  /** Counts `n` texts of a batch task answered 503 because the task's deadline passed. */
  countDeadline(n: number): void;
  /** The pool's workers. */
  readonly threads: number;
}
