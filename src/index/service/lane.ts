/**
 * The lane: how a thread hands a task to the index pool's workers and gets its answer back through
 * shared memory, without a message per task (issue 15, item 2; measured in docs/benchmarks.md).
 *
 * A postMessage per task and per answer costs the sending thread a structured clone, a lock on the
 * port's queue and a wake-up of the other thread even when it is busy, and piscina's bookkeeping
 * comes on top. Here a task is written straight into a slot of one SharedArrayBuffer and the slot's
 * number into a ring; whichever worker is free takes it and writes its answer over the request. A
 * thread is woken only when it sleeps: a worker only when one announced that it waits for work, the
 * producing thread only for the first answer since it last looked (it then collects every answer
 * that is in).
 *
 * Each producing thread has its own part of the lane (slots, a task ring, an answer ring and its
 * bell), so producers never contend with each other; workers take from every part in turn.
 *
 * Layout (32-bit words, then the slots' bytes):
 *   WAKE (bumped to wake sleeping workers), SLEEPERS (workers waiting), then per producer:
 *   HEAD, TAIL (task ring), DONE_TAIL (answer ring; the producer keeps the head), BELL (1 once an
 *   answer waits for the producer), the task ring and the answer ring (`slots` words each: slot
 *   number, and slot number + 1 with 0 for empty), and per slot its state and its request's and
 *   answer's lengths. Then per producer `slots` × `slotBytes` bytes.
 *
 * What does not fit a slot is the caller's to send another way: `submit` returns undefined, and an
 * answer too big comes back as `TOO_BIG` (pool.ts then uses piscina's messages).
 */

/** Atomics.waitAsync (Node 16+; in TypeScript's library from ES2024 on, past this project's target). */
const waitAsync = (Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
}).waitAsync;

const [WAKE, SLEEPERS] = [0, 1];
const GLOBAL_WORDS = 2;
const [HEAD, TAIL, DONE_TAIL, BELL] = [0, 1, 2, 3];
const PART_CONTROL_WORDS = 4;
/** Per slot: state, request length, answer length. */
const META_WORDS = 3;
const [STATE, REQUEST_LENGTH, ANSWER_LENGTH] = [0, 1, 2];
/** A slot's state: free or being written by its producer; queued or being answered; answered; answered too big to fit. */
const [FREE, QUEUED, ANSWERED, TOO_BIG_ANSWER] = [0, 1, 2, 3];

/** A worker's answer that did not fit its slot: the task is to be sent again another way. */
export const TOO_BIG = Symbol('lane answer too big');

/** How long a task may go unanswered past its deadline before its producer gives up on it (a worker that died). */
const ABANDON_AFTER_MS = 5_000;
/** How long a task without a deadline (a warm-up) may go unanswered. */
const NO_DEADLINE_MS = 60_000;

export interface LaneShape {
  /** Threads that submit tasks, each with its own part. */
  producers: number;
  /** Slots of each producer: a power of two. */
  slots: number;
  /** Bytes of a slot: the largest request, and the largest answer. */
  slotBytes: number;
}

const partWords = (slots: number): number => PART_CONTROL_WORDS + 2 * slots + META_WORDS * slots;

/** The lane's shared memory, given to every producer and worker with its shape. */
export interface Lane {
  buffer: SharedArrayBuffer;
  shape: LaneShape;
}

export function createLane(shape: LaneShape): Lane {
  const { producers, slots, slotBytes } = shape;
  if (producers < 1 || slots < 1 || (slots & (slots - 1)) !== 0 || slotBytes < 64) throw new RangeError(`not a lane's shape: ${JSON.stringify(shape)}`);
  const words = GLOBAL_WORDS + producers * partWords(slots);
  return { buffer: new SharedArrayBuffer(words * 4 + producers * slots * slotBytes), shape };
}

/** One producer's part of the lane: the views both sides use. */
class Part {
  readonly control: Int32Array;
  readonly tasks: Int32Array;
  readonly answers: Int32Array;
  readonly meta: Int32Array;
  readonly bytes: Uint8Array;
  readonly mask: number;
  readonly slotBytes: number;

  constructor(
    lane: Lane,
    readonly index: number,
  ) {
    const { producers, slots, slotBytes } = lane.shape;
    const first = GLOBAL_WORDS + index * partWords(slots);
    const words = (at: number, n: number) => new Int32Array(lane.buffer, (first + at) * 4, n);
    this.control = words(0, PART_CONTROL_WORDS);
    this.tasks = words(PART_CONTROL_WORDS, slots);
    this.answers = words(PART_CONTROL_WORDS + slots, slots);
    this.meta = words(PART_CONTROL_WORDS + 2 * slots, META_WORDS * slots);
    const bytesAt = (GLOBAL_WORDS + producers * partWords(slots)) * 4 + index * slots * slotBytes;
    this.bytes = new Uint8Array(lane.buffer, bytesAt, slots * slotBytes);
    this.mask = slots - 1;
    this.slotBytes = slotBytes;
  }

  slot(i: number, length = this.slotBytes): Uint8Array {
    return this.bytes.subarray(i * this.slotBytes, i * this.slotBytes + length);
  }

  hasTasks(): boolean {
    return Atomics.load(this.control, HEAD) !== Atomics.load(this.control, TAIL);
  }
}

interface InFlight {
  read: (answer: Uint8Array) => unknown;
  resolve: (answer: unknown) => void;
  reject: (e: Error) => void;
  /** Date.now() after which the task's worker is taken for dead (its deadline and ABANDON_AFTER_MS). */
  abandonAt: number;
}

/**
 * A producing thread's end: `submit` writes a task into a free slot and resolves with what `read`
 * makes of its answer (read while the slot is still the task's: it must copy what it keeps).
 */
export class LaneProducer {
  private readonly part: Part;
  private readonly global: Int32Array;
  private readonly free: number[] = [];
  private readonly inFlight: (InFlight | undefined)[];
  /** Slots whose worker never answered (taken for dead): reused once it does. */
  private readonly abandoned = new Set<number>();
  /** Position of the next answer to read in the answer ring. */
  private doneHead = 0;
  private listening = false;
  private closed = false;
  /** Runs while tasks are in flight: gives up on a dead worker's task, and keeps the process alive meanwhile (a waitAsync does not). */
  private watchdog?: NodeJS.Timeout;
  private count = 0;

  constructor(
    lane: Lane,
    producer: number,
    private readonly abandonAfterMs = ABANDON_AFTER_MS,
  ) {
    this.part = new Part(lane, producer);
    this.global = new Int32Array(lane.buffer, 0, GLOBAL_WORDS);
    this.inFlight = new Array<InFlight | undefined>(lane.shape.slots);
    for (let i = lane.shape.slots - 1; i >= 0; i--) this.free.push(i);
  }

  /**
   * Queues a task for the next free worker: `write` writes it into the slot it is given and returns
   * its length (-1: it does not fit). Undefined when it does not fit or no slot is free: the caller
   * sends it another way. `deadline`: when the task gives up (a Date.now() time, or Infinity).
   */
  submit<T>(deadline: number, write: (slot: Uint8Array) => number, read: (answer: Uint8Array) => T): Promise<T | typeof TOO_BIG> | undefined {
    if (this.closed || this.free.length === 0) return undefined;
    const { part } = this;
    const i = this.free[this.free.length - 1];
    const length = write(part.slot(i));
    if (length < 0) return undefined;
    this.free.pop();
    part.meta[i * META_WORDS + REQUEST_LENGTH] = length;
    Atomics.store(part.meta, i * META_WORDS + STATE, QUEUED);
    const promise = new Promise<T | typeof TOO_BIG>((resolve, reject) => {
      const abandonAt = (deadline === Infinity ? Date.now() + NO_DEADLINE_MS : deadline) + this.abandonAfterMs;
      this.inFlight[i] = { read, resolve: resolve as (answer: unknown) => void, reject, abandonAt };
    });
    this.count++;
    this.listen();
    this.watch();
    // This thread alone moves its tail: the slot's number is stored before the tail that publishes it.
    const tail = part.control[TAIL];
    Atomics.store(part.tasks, tail & part.mask, i);
    Atomics.store(part.control, TAIL, (tail + 1) | 0);
    if (Atomics.load(this.global, SLEEPERS) > 0) {
      Atomics.add(this.global, WAKE, 1);
      Atomics.notify(this.global, WAKE, 1);
    }
    return promise;
  }

  /** Refuses new tasks and fails those in flight (the workers end with their pool). */
  close(): void {
    this.closed = true;
    clearInterval(this.watchdog);
    for (let i = 0; i < this.inFlight.length; i++) this.settle(i, new Error('the index service closed'));
  }

  /** Waits for the bell and collects every answer in, for as long as tasks are in flight. */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    const { control } = this.part;
    const loop = (): void => {
      for (;;) {
        Atomics.store(control, BELL, 0);
        this.collect();
        if (this.count === 0 || this.closed) {
          this.listening = false;
          return;
        }
        const wait = waitAsync(control, BELL, 0);
        if (wait.async) {
          void wait.value.then(loop);
          return;
        }
      }
    };
    loop();
  }

  private collect(): void {
    const { answers, meta, control, mask } = this.part;
    const end = Atomics.load(control, DONE_TAIL);
    while (this.doneHead !== end) {
      const at = this.doneHead & mask;
      const entry = Atomics.load(answers, at);
      // A worker claimed this place and has not written it yet: it rings once it has.
      if (entry === 0) return;
      Atomics.store(answers, at, 0);
      this.doneHead = (this.doneHead + 1) | 0;
      this.settle(entry - 1);
    }
  }

  /** Ends slot `i`'s task with its answer (or `error`), and frees the slot. */
  private settle(i: number, error?: Error): void {
    const flight = this.inFlight[i];
    if (!flight && !this.abandoned.delete(i)) return;
    let outcome: unknown = error;
    if (flight && !error) {
      const { meta } = this.part;
      try {
        outcome = Atomics.load(meta, i * META_WORDS + STATE) === TOO_BIG_ANSWER ? TOO_BIG : flight.read(this.part.slot(i, meta[i * META_WORDS + ANSWER_LENGTH]));
      } catch (e) {
        outcome = e instanceof Error ? e : new Error(String(e));
      }
    }
    Atomics.store(this.part.meta, i * META_WORDS + STATE, FREE);
    this.free.push(i);
    if (!flight) return;
    this.inFlight[i] = undefined;
    this.done();
    if (outcome instanceof Error) flight.reject(outcome);
    else flight.resolve(outcome);
  }

  private done(): void {
    this.count--;
    if (this.count > 0) return;
    clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  private watch(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => {
      const now = Date.now();
      for (let i = 0; i < this.inFlight.length; i++) {
        const flight = this.inFlight[i];
        if (!flight || flight.abandonAt > now) continue;
        // The slot stays taken (its worker may yet write it); the task fails now.
        this.inFlight[i] = undefined;
        this.abandoned.add(i);
        this.done();
        flight.reject(new Error(`an index worker took a task and did not answer it within ${this.abandonAfterMs} ms of its deadline`));
      }
    }, 250);
  }
}

/**
 * A worker's handler of one task: writes its answer into `answer` (the task's slot, free to
 * overwrite: `request` is a copy) and returns its length, or -1 when it does not fit. Must not throw:
 * it answers errors itself.
 */
export type LaneHandler = (request: Uint8Array, answer: Uint8Array) => number | Promise<number>;

/**
 * A pool worker's end: takes tasks while there are any (one per turn of the event loop, so the
 * pool's own messages are not starved), from each producer's part in turn, and sleeps in
 * Atomics.waitAsync when there are none. Runs as long as the worker.
 */
export function serveLane(lane: Lane, handler: LaneHandler): void {
  const parts = Array.from({ length: lane.shape.producers }, (_, p) => new Part(lane, p));
  const global = new Int32Array(lane.buffer, 0, GLOBAL_WORDS);
  let turn = 0;
  const next = (): void => {
    for (;;) {
      const seen = Atomics.load(global, WAKE);
      for (let k = 0; k < parts.length; k++) {
        const part = parts[(turn + k) % parts.length];
        const i = take(part);
        if (i < 0) continue;
        turn = (part.index + 1) % parts.length;
        void answer(part, i, handler).then(() => setImmediate(next));
        return;
      }
      // Announce the wait, then look once more: a task queued before the announcement is seen now,
      // one queued after it bumps WAKE, which the wait then finds changed.
      Atomics.add(global, SLEEPERS, 1);
      if (parts.some((p) => p.hasTasks())) {
        Atomics.sub(global, SLEEPERS, 1);
        continue;
      }
      const wait = waitAsync(global, WAKE, seen);
      if (wait.async) {
        void wait.value.then(() => {
          Atomics.sub(global, SLEEPERS, 1);
          next();
        });
        return;
      }
      Atomics.sub(global, SLEEPERS, 1);
    }
  };
  next();
}

/** The next queued slot of a part, or -1. Workers race for it: the head moves by compare-and-swap. */
function take(part: Part): number {
  const { control, tasks, mask } = part;
  for (;;) {
    const head = Atomics.load(control, HEAD);
    if (head === Atomics.load(control, TAIL)) return -1;
    const i = Atomics.load(tasks, head & mask);
    if (Atomics.compareExchange(control, HEAD, head, (head + 1) | 0) === head) return i;
  }
}

async function answer(part: Part, i: number, handler: LaneHandler): Promise<void> {
  const { meta, control, answers, mask } = part;
  // A copy: the handler's decoder may not read shared memory (TextDecoder refuses it, msgpackr's native reader crashes).
  const request = Uint8Array.prototype.slice.call(part.slot(i, meta[i * META_WORDS + REQUEST_LENGTH]));
  const length = await handler(request, part.slot(i));
  if (length < 0) {
    Atomics.store(meta, i * META_WORDS + STATE, TOO_BIG_ANSWER);
  } else {
    meta[i * META_WORDS + ANSWER_LENGTH] = length;
    Atomics.store(meta, i * META_WORDS + STATE, ANSWERED);
  }
  // Claim a place in the answer ring, write it, then ring the producer unless it has been rung already.
  const at = Atomics.add(control, DONE_TAIL, 1);
  Atomics.store(answers, at & mask, i + 1);
  if (Atomics.exchange(control, BELL, 1) === 0) Atomics.notify(control, BELL, 1);
}
