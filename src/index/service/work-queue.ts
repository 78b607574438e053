/**
 * The index pool's queue and admission (issue 11, item 7). Refrain keeps the waiting tasks itself and
 * hands the pool one task per worker, so it can:
 *   - refuse at admission (503 at once) when the queue is full by count (`--index-queue`) or by
 *     estimated cost (`--index-queue-cost`, characters of text), or when the estimated wait for a
 *     worker plus the task's own estimated run time passes the deadline: such a task would only
 *     take a worker's time to be answered 503 late;
 *   - answer a waiting task 503 when its deadline passes (one timer, for the earliest deadline),
 *     not when a worker finally reaches it;
 *   - drop a task whose deadline has passed, or cannot be met by its estimated run time, when it is
 *     dequeued: it is never run, and the worker's time goes to tasks that can still succeed.
 * Run times are estimated per kind of task as milliseconds per unit of cost (an exponential moving
 * average of what finished tasks took), so the estimates follow the machine and the catalog.
 *
 * The queue lives on one thread. Other threads (HTTP threads, docs/http-threads-plan.md) pre-check a
 * fingerprint's admission before reading its body against a `QueueSnapshot` the queue publishes in
 * shared memory at each change, with the same rule (`refusalOf`); the queue decides again when the
 * task is submitted.
 */
import { RefrainError } from '../../errors.js';

export interface WorkQueueOptions {
  /** Tasks run at once (the pool's workers). */
  slots: number;
  /** Tasks waiting at most. */
  maxQueued: number;
  /** Total estimated cost of the waiting tasks at most (characters of text). */
  maxQueuedCost: number;
  /** Milliseconds a task may take, waiting included. */
  deadlineMs: number;
  clock?: () => number;
}

/** What admission reads of a queue: the refusal rule's inputs. */
export interface QueueState {
  waiting: number;
  running: number;
  /** Estimated cost of the waiting tasks. */
  queuedCost: number;
  /** Estimated milliseconds until a worker is free for a new task. */
  waitMs: number;
}

export type QueueLimits = Pick<WorkQueueOptions, 'slots' | 'maxQueued' | 'maxQueuedCost' | 'deadlineMs'>;

/** Whether a new task would have to wait for a worker: only such a task may be refused. */
export const mustWait = (state: Pick<QueueState, 'waiting' | 'running'>, limits: QueueLimits): boolean => state.waiting > 0 || state.running >= limits.slots;

/**
 * The admission rule (see the module comment): the refusal a task of `cost` and `estimateMs`, due by
 * `deadline`, gets from a queue in `state` at `now`, or undefined when it may wait.
 */
export function refusalOf(state: QueueState, limits: QueueLimits, cost: number, estimateMs: number, deadline: number, now: number): RefrainError | undefined {
  const { maxQueued, maxQueuedCost, deadlineMs } = limits;
  if (state.waiting >= maxQueued) {
    const n = state.waiting;
    return busy(`system busy: every index worker is occupied and ${n} ${n === 1 ? 'query is' : 'queries are'} waiting; retry in a moment`, 1);
  }
  if (state.queuedCost + cost > maxQueuedCost) {
    return busy(
      `system busy: with this one, the queries waiting for an index worker would add up to ${(state.queuedCost + cost).toLocaleString('en')} ` +
        `characters of text (limit ${maxQueuedCost.toLocaleString('en')}); retry in a moment`,
      1,
    );
  }
  if (state.waitMs + estimateMs > Math.min(deadlineMs, deadline - now)) {
    return busy(
      `system busy: the query would wait about ${Math.round(state.waitMs)} ms for an index worker and take about ${Math.round(estimateMs)} ms, ` +
        `past the ${deadlineMs} ms deadline; retry in a moment`,
      Math.ceil(state.waitMs / 1000),
    );
  }
  return undefined;
}

/** Milliseconds a fingerprint of `chars` characters is estimated to take, from microseconds per 1,000 characters. */
const fingerprintEstimate = (usPerKiloChar: number, chars: number): number => (usPerKiloChar > 0 ? usPerKiloChar / 1e6 : PRIOR_MS_PER_COST) * Math.max(chars, 1);

const [WAITING, RUNNING, QUEUED_COST, WAIT_MS, FP_US_PER_KCHAR, REFUSED] = [0, 1, 2, 3, 4, 5];

/**
 * A queue's state in shared memory, written by the queue's thread at each change (single writer,
 * a word at a time: a reader may see words of two moments, which only moves a pre-check), read by
 * any thread to pre-check a fingerprint (`refuseFingerprint`), whose refusals it counts.
 */
export class QueueSnapshot {
  private readonly words: Int32Array;

  constructor(
    readonly limits: QueueLimits,
    readonly buffer = new SharedArrayBuffer(6 * 4),
  ) {
    this.words = new Int32Array(buffer);
  }

  publish(state: QueueState, fingerprintMsPerChar: number | undefined): void {
    const w = this.words;
    Atomics.store(w, WAITING, state.waiting);
    Atomics.store(w, RUNNING, state.running);
    Atomics.store(w, QUEUED_COST, Math.min(state.queuedCost, 0x7fff_ffff));
    Atomics.store(w, WAIT_MS, Math.min(Math.ceil(state.waitMs), 0x7fff_ffff));
    if (fingerprintMsPerChar !== undefined) Atomics.store(w, FP_US_PER_KCHAR, Math.max(1, Math.min(Math.round(fingerprintMsPerChar * 1e6), 0x7fff_ffff)));
  }

  /** Throws the 503 a fingerprint of about `chars` characters would get from the queue now (counted). */
  refuseFingerprint(chars: number, now: number): void {
    const w = this.words;
    const state: QueueState = { waiting: Atomics.load(w, WAITING), running: Atomics.load(w, RUNNING), queuedCost: Atomics.load(w, QUEUED_COST), waitMs: Atomics.load(w, WAIT_MS) };
    if (!mustWait(state, this.limits)) return;
    const refusal = refusalOf(state, this.limits, chars, fingerprintEstimate(Atomics.load(w, FP_US_PER_KCHAR), chars), now + this.limits.deadlineMs, now);
    if (!refusal) return;
    Atomics.add(w, REFUSED, 1);
    throw refusal;
  }

  /** Refusals counted by `refuseFingerprint`, on any thread. */
  get refused(): number {
    return Atomics.load(this.words, REFUSED);
  }
}

export interface QueuedTask<R> {
  /** Kind of task: run times are estimated per kind. */
  kind: string;
  /** Estimated cost in characters of text (a fingerprint's text length). */
  cost: number;
  /** Date.now() after which the task is answered 503; Infinity for internal tasks (no admission). */
  deadline: number;
  run: () => Promise<R>;
}

interface Waiting<R> extends QueuedTask<R> {
  estimateMs: number;
  resolve: (value: R) => void;
  reject: (reason: unknown) => void;
}

export interface WorkQueueStats {
  queued: number;
  running: number;
  /** Refused at admission (full queue, cost bound, estimated wait). */
  rejectedBusy: number;
  /** Answered 503 because the deadline passed (waiting, dropped when dequeued, or while running). */
  rejectedDeadline: number;
  /** Dropped before they ran (deadline passed or out of reach when dequeued, or passed while waiting). */
  dropped: number;
}

/** Milliseconds per unit of cost assumed for a kind of task before any has finished. */
const PRIOR_MS_PER_COST = 0.001;
/** Weight of the newest run in the moving average. */
const ALPHA = 0.2;

export class WorkQueue {
  private readonly waiting: Waiting<unknown>[] = [];
  private readonly started = new Map<Waiting<unknown>, number>();
  private queuedCost = 0;
  private queuedMs = 0;
  private readonly msPerCost = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private readonly clock: () => number;
  private counts = { rejectedBusy: 0, rejectedDeadline: 0, dropped: 0 };

  /** This queue's state for other threads, kept current. */
  readonly snapshot: QueueSnapshot;

  constructor(private readonly options: WorkQueueOptions) {
    this.clock = options.clock ?? Date.now;
    this.snapshot = new QueueSnapshot({ slots: options.slots, maxQueued: options.maxQueued, maxQueuedCost: options.maxQueuedCost, deadlineMs: options.deadlineMs });
  }

  get stats(): WorkQueueStats {
    const counts = { ...this.counts, rejectedBusy: this.counts.rejectedBusy + this.snapshot.refused };
    return { queued: this.waiting.length, running: this.started.size, ...counts };
  }

  /** The answer to a task past its deadline (also used for a running task that gave up). */
  deadlineError(): RefrainError {
    this.counts.rejectedDeadline++;
    return new RefrainError('busy', `system busy: the query did not finish within ${this.options.deadlineMs} ms; retry in a moment`, { 'Retry-After': '1' });
  }

  /** Counts `n` answers cut by their deadline inside a task that finished (a batch's texts left unscreened). */
  countDeadline(n: number): void {
    this.counts.rejectedDeadline += n;
  }

  /** Estimated run time of a task, from what tasks of its kind took. */
  estimate(kind: string, cost: number): number {
    return (this.msPerCost.get(kind) ?? PRIOR_MS_PER_COST) * Math.max(cost, 1);
  }

  /** Runs the task when a slot is free, or refuses it at once (503); see the module comment. */
  submit<R>(task: QueuedTask<R>): Promise<R> {
    const now = this.clock();
    const estimateMs = this.estimate(task.kind, task.cost);
    const wait = this.mustWait();
    if (wait && task.deadline !== Infinity) {
      const refusal = this.refusal(task, estimateMs, now);
      if (refusal) {
        this.counts.rejectedBusy++;
        return Promise.reject(refusal);
      }
    }
    return new Promise<R>((resolve, reject) => {
      const job = { ...task, estimateMs, resolve, reject } as Waiting<unknown>;
      // A free worker takes the task whatever its estimate: the estimates learn from such runs, so
      // a kind estimated too slow once is not refused for ever.
      if (!wait) {
        this.start(job, now);
        return this.publish();
      }
      this.waiting.push(job);
      this.queuedCost += task.cost;
      this.queuedMs += estimateMs;
      if (task.deadline < this.timerAt) this.arm(task.deadline);
      this.pump();
    });
  }

  /**
   * Would a task of this kind and cost be refused now? Throws the refusal (counted as one) so a
   * caller can answer 503 before it reads the request's body; the task itself still goes through
   * `submit`, which decides again when the body is in.
   */
  check(kind: string, cost: number): void {
    const now = this.clock();
    if (!this.mustWait()) return;
    const refusal = this.refusal({ kind, cost, deadline: now + this.options.deadlineMs, run: async () => undefined }, this.estimate(kind, cost), now);
    if (!refusal) return;
    this.counts.rejectedBusy++;
    throw refusal;
  }

  /** Stops the deadline timer (the pool is closing). */
  close(): void {
    clearTimeout(this.timer);
    this.timerAt = Infinity;
  }

  private refusal(task: QueuedTask<unknown>, estimateMs: number, now: number): RefrainError | undefined {
    return refusalOf(this.state(now), this.options, task.cost, estimateMs, task.deadline, now);
  }

  /** Whether a new task would wait (two counts: the full state is computed only to refuse). */
  private mustWait(): boolean {
    return mustWait({ waiting: this.waiting.length, running: this.started.size }, this.options);
  }

  /** The refusal rule's view of this queue at `now`. */
  private state(now: number): QueueState {
    let runningMs = 0;
    for (const [job, at] of this.started) runningMs += Math.max(0, job.estimateMs - (now - at));
    return { waiting: this.waiting.length, running: this.started.size, queuedCost: this.queuedCost, waitMs: (this.queuedMs + runningMs) / this.options.slots };
  }

  /** Publishes the state for other threads' pre-checks. */
  private publish(): void {
    this.snapshot.publish(this.state(this.clock()), this.msPerCost.get('fingerprint'));
  }

  /** Starts waiting tasks while slots are free, dropping those that can no longer finish in time. */
  private pump(): void {
    while (this.started.size < this.options.slots && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.queuedCost -= job.cost;
      this.queuedMs -= job.estimateMs;
      const now = this.clock();
      // Past its deadline, or out of reach: running it would only take a worker from a task that can succeed.
      if (now >= job.deadline || now + job.estimateMs > job.deadline) {
        this.counts.dropped++;
        job.reject(this.deadlineError());
        continue;
      }
      this.start(job, now);
    }
    if (this.waiting.length === 0) {
      this.queuedCost = 0;
      this.queuedMs = 0;
    }
    this.publish();
  }

  private start(job: Waiting<unknown>, now: number): void {
    this.started.set(job, now);
    // A failed run (deadline) teaches too: its time is a lower bound of what the task needed.
    job.run().then(
      (value) => {
        this.finish(job, now);
        job.resolve(value);
      },
      (err: unknown) => {
        this.finish(job, now);
        job.reject(err);
      },
    );
  }

  private finish(job: Waiting<unknown>, startedAt: number): void {
    this.learn(job.kind, job.cost, this.clock() - startedAt);
    this.started.delete(job);
    this.pump();
  }

  private learn(kind: string, cost: number, ms: number): void {
    const sample = ms / Math.max(cost, 1);
    const previous = this.msPerCost.get(kind);
    this.msPerCost.set(kind, previous === undefined ? sample : previous + ALPHA * (sample - previous));
  }

  /** One timer, for the earliest deadline of the waiting tasks. */
  private arm(at: number): void {
    clearTimeout(this.timer);
    this.timerAt = at;
    if (at === Infinity) return;
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - this.clock()));
    this.timer.unref();
  }

  /** Answers 503 to every waiting task whose deadline has passed, and re-arms for the next one. */
  private expire(): void {
    const now = this.clock();
    let next = Infinity;
    for (let i = 0; i < this.waiting.length; ) {
      const job = this.waiting[i];
      if (job.deadline > now) {
        next = Math.min(next, job.deadline);
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.queuedCost -= job.cost;
      this.queuedMs -= job.estimateMs;
      this.counts.dropped++;
      job.reject(this.deadlineError());
    }
    this.arm(next);
    this.publish();
  }
}

function busy(hint: string, retryAfterSeconds: number): RefrainError {
  return new RefrainError('busy', hint, { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });
}
