/**
 * A streamed body (chunked encoding: the batch screening method) over a uWS response, holding at
 * most what its producer had in flight beyond what the socket took.
 *
 * uWS's `write` keeps whatever the socket does not take and returns false, and that remainder goes
 * out only with the next write or the end: once a response has a writable handler, uWS leaves the
 * draining to it (on this build, a handler that writes nothing leaves the remainder where it is,
 * and is not called again). So a producer that resumed on the writable event without writing would
 * add its next chunks behind a remainder that never shrinks, and a slow reader could make the
 * process hold the whole answer. Here instead:
 *
 * - while uWS holds a remainder, chunks are kept in this stream's queue, not handed to uWS, and
 *   `write` returns false: the producer starts nothing new, and what it had in flight lands here;
 * - on the writable event the queue goes out in one write, which sends the remainder first; once
 *   uWS has taken everything the producer resumes. With nothing queued it resumes at once, and its
 *   next chunk (or the end) carries the remainder out;
 * - a client that takes nothing for the stall time (`--http-stall-timeout`) is cut off.
 *
 * A write made inside `cork` can also leave a remainder unseen (it lands in uWS's cork buffer,
 * 16 KB, and only the flush finds the socket full); the next write then reports it. So a connection
 * holds at most its kernel buffer, one cork buffer, the last chunk uWS took, and the queue: the
 * chunks the producer had in flight.
 */

/**
 * A streamed body, as its producer sees it. Every call may come at any time (it corks itself);
 * nothing is written once the client went away.
 */
export interface BodyStream {
  /**
   * Sends a chunk. False when the client is not taking them as fast as they come: start nothing
   * more until `onWritable`'s callback runs (the chunk itself is kept and sent; nothing is lost).
   */
  write(chunk: string | Buffer): boolean;
  /** Called each time the client has taken what was waiting, after a `write` returned false. */
  onWritable(resume: () => void): void;
  /** Ends the body (after what is queued). */
  end(): void;
  /** Called once if the client goes away (or stalls: see `--http-stall-timeout`) before the end. */
  onClose(stop: () => void): void;
  /** The client went away. */
  readonly closed: boolean;
}

/** What the stream uses of a uWS response (HttpResponse is one). */
export interface StreamTarget {
  cork(cb: () => void): unknown;
  write(chunk: string | Buffer): boolean;
  end(chunk?: string | Buffer): unknown;
  close(): unknown;
  onWritable(handler: (offset: number) => boolean): unknown;
}

/** The most a write hands uWS while it may still hold a remainder (see the header). */
const PROBE_BYTES = 512;

export class ResponseStream implements BodyStream {
  closed = false;
  /** uWS may hold part of what was written (a write returned false since the last successful probe). */
  private held = false;
  /** A write failed: uWS's writable event is to come, and nothing is written until it does. */
  private blocked = false;
  /** Chunks not handed to uWS yet. */
  private queue: (string | Buffer)[] = [];
  private resume?: () => void;
  private stop?: () => void;
  private stall?: NodeJS.Timeout;

  /** `onAbort` registers a callback for the client going away; `stallMs` as above. */
  constructor(
    private readonly res: StreamTarget,
    onAbort: (listener: () => void) => void,
    private readonly stallMs: number,
  ) {
    res.onWritable(() => this.writable());
    onAbort(() => this.close());
  }

  /** Bytes queued here, not handed to uWS yet (for tests and diagnostics). */
  get queuedBytes(): number {
    let n = 0;
    for (const chunk of this.queue) n += Buffer.byteLength(chunk);
    return n;
  }

  write(chunk: string | Buffer): boolean {
    if (this.closed) return false;
    this.queue.push(chunk);
    if (this.blocked) return false;

    let ok = true;
    this.res.cork(() => (ok = this.flush()));
    if (!ok) this.block();
    return ok;
  }

  onWritable(resume: () => void): void {
    this.resume = resume;
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.stall);
    // Once ended, uWS sends what it holds by itself.
    const rest = this.takeQueue();
    this.res.cork(() => this.res.end(rest));
  }

  onClose(stop: () => void): void {
    this.stop = stop;
  }

  /**
   * Hands the queue to uWS. While uWS may hold a remainder, only a probe of PROBE_BYTES goes first:
   * uWS sends its remainder before it, and takes the rest only if the probe went out too. False
   * when uWS kept something (its writable event is to come).
   */
  private flush(): boolean {
    if (this.queue.length === 0) return true;
    if (this.held) {
      if (!this.res.write(this.probe())) return false;
      this.held = false;
      if (this.queue.length === 0) return true;
    }
    if (this.res.write(this.takeQueue()!)) return true;
    this.held = true;
    return false;
  }

  /** uWS's writable event: the queue goes out (probing first); the producer resumes once uWS took it all, or when nothing is queued. */
  private writable(): boolean {
    if (!this.blocked || this.closed) return true;
    this.blocked = false;
    clearTimeout(this.stall);
    if (!this.flush()) {
      this.block();
      return false;
    }
    // With nothing queued, uWS's remainder goes out with the producer's next chunk (probing first).
    this.resume?.();
    return true;
  }

  private block(): void {
    this.blocked = true;
    this.held = true;
    this.stall = setTimeout(() => {
      this.close();
      this.res.close();
    }, this.stallMs);
    this.stall.unref();
  }

  /** The first PROBE_BYTES of the queue (a character is not split), taken off it. */
  private probe(): string | Buffer {
    const head = this.queue[0];
    let n = Math.min(PROBE_BYTES, head.length);
    if (typeof head === 'string' && n < head.length && isHighSurrogate(head.charCodeAt(n - 1))) n--;
    if (n === head.length) return this.queue.shift()!;
    this.queue[0] = head.slice(n);
    return head.slice(0, n);
  }

  /** The queued chunks as one, emptying the queue; undefined when there are none. */
  private takeQueue(): string | Buffer | undefined {
    const queue = this.queue;
    if (queue.length === 0) return undefined;
    this.queue = [];
    if (queue.length === 1) return queue[0];
    return queue.every((c) => typeof c === 'string') ? queue.join('') : Buffer.concat(queue.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    clearTimeout(this.stall);
    this.stop?.();
  }
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
