/**
 * ResponseStream (src/http/stream.ts) and the batch producer (src/api/batch.ts) against a model of
 * the uWS response they write to, built from what this uWS build does (checked with a real socket):
 * `write` sends what the socket takes and keeps the rest, returning false; a write under `cork`
 * lands in a 16 KB cork buffer and returns true, the flush keeping what the socket does not take;
 * the kept remainder goes out only with a later write, or, once the response ended, by uWS itself;
 * the writable event comes after a write that could not finish, once the socket has room, and when
 * its handler writes nothing, the remainder stays where it is.
 *
 * A client reading slowly must get every line while the process holds only a bounded amount.
 */
import t from 'tap';
import { ResponseStream, type StreamTarget } from '../../src/http/stream.js';
import { streamBatch, type BatchRun, type ParsedBatch } from '../../src/api/batch.js';
import type { BatchText, PoolAnswer } from '../../src/api/pool-worker.js';
import { RefrainError } from '../../src/errors.js';

const CORK_BUFFER = 16 * 1024;

class ModelResponse implements StreamTarget {
  /** Bytes the client has read. */
  delivered = '';
  /** In the kernel's buffers, not read yet. */
  private inKernel = '';
  /** What uWS keeps (its per-socket buffer). */
  held = '';
  private corked: string | undefined;
  private writeFailed = false;
  private handler?: (offset: number) => boolean;
  ended = false;
  closedByServer = false;
  /** Most bytes this process held at once (uWS's buffer, and what `extra` reports: the stream's queue). */
  maxHeld = 0;

  constructor(
    private readonly kernel: number,
    private readonly extra: () => number = () => 0,
  ) {}

  private send(data: string): string {
    const room = Math.max(0, this.kernel - this.inKernel.length);
    this.inKernel += data.slice(0, room);
    return data.slice(room);
  }

  private note(): void {
    this.maxHeld = Math.max(this.maxHeld, this.held.length + (this.corked?.length ?? 0) + this.extra());
  }

  cork(cb: () => void): this {
    if (this.corked !== undefined) {
      cb();
      return this;
    }
    this.corked = '';
    cb();
    const flush = this.corked;
    this.corked = undefined;
    this.keep(this.send(flush));
    return this;
  }

  private keep(rest: string): void {
    if (rest === '') return;
    this.held += rest;
    this.writeFailed = true;
    this.note();
  }

  write(chunk: string | Buffer): boolean {
    const data = String(chunk);
    if (this.held !== '') {
      this.held = this.send(this.held);
      if (this.held !== '') {
        this.held += data;
        this.writeFailed = true;
        this.note();
        return false;
      }
    }
    if (this.corked !== undefined && this.corked.length + data.length <= CORK_BUFFER) {
      this.corked += data;
      this.note();
      return true;
    }
    const pending = (this.corked ?? '') + data;
    if (this.corked !== undefined) this.corked = '';
    this.keep(this.send(pending));
    return this.held === '';
  }

  /** The end writes the last chunk and the terminator (here: nothing), which sends what uWS holds first. */
  end(chunk?: string | Buffer): this {
    this.write(chunk ?? '');
    this.ended = true;
    this.handler = undefined;
    return this;
  }

  close(): this {
    this.closedByServer = true;
    return this;
  }

  onWritable(handler: (offset: number) => boolean): this {
    this.handler = handler;
    return this;
  }

  /** The client reads up to `n` bytes; the socket then has room, and uWS reacts as it does. */
  read(n: number): void {
    this.delivered += this.inKernel.slice(0, n);
    this.inKernel = this.inKernel.slice(n);
    if (!this.writeFailed || this.inKernel.length >= this.kernel) return;
    this.writeFailed = false;
    if (this.handler) this.handler(0);
    else if (this.held !== '') {
      this.held = this.send(this.held);
      this.writeFailed = this.held !== '';
    }
  }

  /** Everything was written and the client read it all. */
  get finished(): boolean {
    return this.ended && this.held === '' && this.inKernel === '';
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A batch of `count` texts whose every line is `lineBytes` long, screened `inFlight` tasks at a time. */
function fakeBatch(count: number, lineBytes: number, inFlight: number, fail?: (call: number) => unknown) {
  const texts: BatchText[] = Array.from({ length: count }, (_, i) => ({ id: i, text: `text ${i}` }));
  let admitted = 0;
  let calls = 0;
  const run: BatchRun = {
    admit: () => void admitted++,
    screen: async (chunk): Promise<PoolAnswer> => {
      const call = calls++;
      await tick();
      const error = fail?.(call);
      if (error) throw error;
      const body = chunk.map((c) => `${JSON.stringify({ id: c.id, status_code: 200, pad: 'x'.repeat(Math.max(0, lineBytes - 50)) })}\n`).join('');
      return { header: {}, headers: {}, body: new TextEncoder().encode(body) };
    },
    inFlight,
    log: () => undefined,
  };
  const batch: ParsedBatch = { texts, refused: [] };
  return { batch, run, admittedCount: () => admitted };
}

async function drive(res: ModelResponse, readBytes: number, maxTicks = 200_000): Promise<void> {
  for (let i = 0; i < maxTicks && !res.finished && !res.closedByServer; i++) {
    res.read(readBytes);
    await tick();
  }
}

t.test('a slow reader gets every line, and the process holds a bounded amount meanwhile', async (t) => {
  const lineBytes = 2_000;
  const inFlight = 4;
  let stream: ResponseStream | undefined;
  const res = new ModelResponse(64 * 1024, () => stream?.queuedBytes ?? 0);
  stream = new ResponseStream(res, () => undefined, 60_000);
  const { batch, run } = fakeBatch(1000, lineBytes, inFlight);
  streamBatch(stream, batch, run);
  await drive(res, 1_500);
  t.ok(res.finished, 'the batch ended and the client read it all');
  const lines = res.delivered.split('\n').filter(Boolean);
  t.equal(lines.length, 1000, 'every line came');
  t.equal(new Set(lines.map((l) => (JSON.parse(l) as { id: number }).id)).size, 1000, 'each text once');
  // What the running tasks answered, queued, and the last queue uWS kept part of; a cork buffer and probes.
  const bound = 2 * inFlight * 16 * lineBytes + CORK_BUFFER + 4096;
  t.ok(res.maxHeld <= bound, `held at most ${res.maxHeld.toLocaleString('en')} bytes (bound ${bound.toLocaleString('en')}; the whole answer is ${(1000 * lineBytes).toLocaleString('en')})`);
});

t.test('a client that reads nothing stops the work: nothing more is sent or charged', async (t) => {
  const stream = new ResponseStream(new ModelResponse(16 * 1024), () => undefined, 60_000);
  const { batch, run, admittedCount } = fakeBatch(1000, 2_000, 2);
  streamBatch(stream, batch, run);
  for (let i = 0; i < 50; i++) await tick();
  t.ok(admittedCount() <= 3 * 16, `${admittedCount()} texts admitted of 1,000`);
});

t.test('a stalled client is cut off and the stream stops', async (t) => {
  const res = new ModelResponse(1024);
  let stopped = false;
  const stream = new ResponseStream(res, () => undefined, 20);
  stream.onClose(() => (stopped = true));
  t.notOk(stream.write('x'.repeat(CORK_BUFFER + 1)), 'the socket took part of it');
  await new Promise((r) => setTimeout(r, 60));
  t.ok(res.closedByServer, 'the connection was closed');
  t.ok(stopped && stream.closed, 'the producer was told');
  t.notOk(stream.write('more'), 'nothing more is written');
});

t.test('a remainder left by a corked write goes out with the next write or the end', async (t) => {
  const res = new ModelResponse(1000);
  const stream = new ResponseStream(res, () => undefined, 60_000);
  t.ok(stream.write('a'.repeat(1500)), 'fits the cork buffer: reported taken');
  t.equal(res.held.length, 500, 'the flush kept 500 bytes');
  res.read(1000);
  t.equal(res.held.length, 500, 'a writable event with nothing queued writes nothing');
  stream.end();
  res.read(1000);
  t.equal(res.delivered, 'a'.repeat(1500), 'the end carried the remainder out');
});

t.test('a busy refusal stops the batch: the texts not sent are answered 503 and not charged', async (t) => {
  const res = new ModelResponse(1 << 20);
  const stream = new ResponseStream(res, () => undefined, 60_000);
  const busy = new RefrainError('busy', 'system busy: every index worker is occupied; retry in a moment', { 'Retry-After': '1' });
  const { batch, run, admittedCount } = fakeBatch(200, 100, 2, (call) => (call === 3 ? busy : undefined));
  streamBatch(stream, batch, run);
  await drive(res, 1 << 20);
  const lines = res.delivered.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: number; status_code: number; hint?: string });
  t.equal(lines.length, 200, 'every text has its line');
  const screened = lines.filter((l) => l.status_code === 200).length;
  const refused = lines.filter((l) => l.status_code === 503);
  t.equal(screened + refused.length, 200);
  t.ok(screened >= 3 * 16 && screened <= 5 * 16, `${screened} screened before and alongside the refusal`);
  t.match(refused.at(-1)!.hint, /not screened/);
  t.ok(admittedCount() < 200, `only texts sent were charged (${admittedCount()})`);
  t.equal(admittedCount(), screened + 16, 'the screened ones and the refused task');
});
