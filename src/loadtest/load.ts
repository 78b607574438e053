/**
 * The two ways a run loads its target.
 *
 * Open loop (`--rate N`): requests are due at a constant arrival rate, the i-th at start + i/N,
 * whatever the target does, as wrk2 schedules them. Each latency is measured from the request's
 * intended send time, not from when it left: when the target stalls, the requests that fall due
 * during the stall wait, and their wait is counted (no coordinated omission). A timer wakes the
 * loop at the next due time (Node's timers: about 1 ms late at most, counted in the latency like
 * any other delay); every request due by then is sent. The count sent never passes rate × time.
 *
 * Closed loop (`--connections N`): N callers each send a request, wait for its answer and send the
 * next; latency from the actual send. This finds peak throughput, and hides stalls by design.
 */
import { envelopeOf, type Outcome, type LoadRequest, type TargetClient } from './client.js';
import type { Recorder } from './recorder.js';

/** Where a run's requests come from: the next one of the mix, its path carrying the key. */
export interface RequestSource {
  next(): LoadRequest;
}

export interface LoadResult {
  /** Requests sent (or given up before sending, as timeouts). */
  sent: number;
  seconds: number;
  /** The largest delay between a request's due time and its sending, ms: the load generator's own lag. */
  maxLagMs: number;
}

export type Clock = () => number;

/** What happens with each answer: recorded, and the fingerprint's source checked. */
export function recordOutcome(recorder: Recorder, request: LoadRequest, latencyMs: number, outcome: Outcome): void {
  recorder.record(request.method, latencyMs, outcome);
  if (request.source && outcome.body && outcome.envelope === 200) recorder.check(request.method, request.source.variant, sourceRank(outcome.body, request.source));
}

/** Rank of the source among a fingerprint answer's tracks (same track or same recording), -1 absent. */
export function sourceRank(body: Buffer, source: NonNullable<LoadRequest['source']>): number {
  const list = (envelopeOf(body)?.body as { track_list?: { track: { track_id: number; commontrack_id: number } }[] } | undefined)?.track_list;
  return list?.findIndex(({ track }) => track.track_id === source.trackId || track.commontrack_id === source.commontrackId) ?? -1;
}

export interface OpenLoopOptions {
  rate: number;
  durationMs: number;
  timeoutMs: number;
  /** Requests outstanding at most; one due beyond it is counted as a timeout without being sent. */
  maxOutstanding: number;
  clock?: Clock;
  /** Called about every 100 ms while running (progress, the recorder's intervals). */
  onTick?: (now: number) => void;
  /** Aborted: stop sending now (Ctrl-C); what was measured is kept. */
  signal?: AbortSignal;
}

export function openLoop(client: TargetClient, source: RequestSource, recorder: Recorder, options: OpenLoopOptions): Promise<LoadResult> {
  const clock = options.clock ?? (() => performance.now());
  const start = clock();
  let end = start + options.durationMs;
  const gap = 1000 / options.rate;
  let i = 0;
  let maxLagMs = 0;
  let lastTick = start;
  return new Promise((resolve) => {
    const fire = (intended: number) => {
      const request = source.next();
      if (client.outstanding >= options.maxOutstanding) {
        recordOutcome(recorder, request, options.timeoutMs, { http: 0, envelope: 0, error: 'timeout' });
        return;
      }
      client.send(request, request.source !== undefined, (outcome) => recordOutcome(recorder, request, clock() - intended, outcome));
    };
    const loop = () => {
      const now = clock();
      if (options.signal?.aborted) end = Math.min(end, now);
      for (let due = start + i * gap; due <= now && due < end; due = start + ++i * gap) {
        maxLagMs = Math.max(maxLagMs, now - due);
        fire(due);
      }
      if (now - lastTick >= 100) {
        lastTick = now;
        options.onTick?.(now);
      }
      const next = start + i * gap;
      if (next >= end) {
        void client.idle().then(() => resolve({ sent: i, seconds: (clock() - start) / 1000, maxLagMs }));
        return;
      }
      setTimeout(loop, Math.max(0, Math.min(next - clock(), 100)));
    };
    loop();
  });
}

export interface ClosedLoopOptions {
  connections: number;
  durationMs: number;
  clock?: Clock;
  onTick?: (now: number) => void;
  signal?: AbortSignal;
}

export async function closedLoop(client: TargetClient, source: RequestSource, recorder: Recorder, options: ClosedLoopOptions): Promise<LoadResult> {
  const clock = options.clock ?? (() => performance.now());
  const start = clock();
  const end = start + options.durationMs;
  let sent = 0;
  const ticker = setInterval(() => options.onTick?.(clock()), 100);
  const caller = async () => {
    while (clock() < end && !options.signal?.aborted) {
      const request = source.next();
      const t0 = clock();
      sent++;
      const outcome = await new Promise<Outcome>((resolve) => client.send(request, request.source !== undefined, resolve));
      recordOutcome(recorder, request, clock() - t0, outcome);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, caller));
  } finally {
    clearInterval(ticker);
  }
  return { sent, seconds: (clock() - start) / 1000, maxLagMs: 0 };
}
