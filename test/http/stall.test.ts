/**
 * The stall limit of src/http/connection.ts (--http-stall-timeout), on a stand-in for uWS whose
 * socket never takes the answer: a real socket's buffers would hold megabytes first.
 */
import t from 'tap';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { withConnectionRules } from '../../src/http/connection.js';

interface FakeState {
  accepts: () => number;
  closed: boolean;
  written: number;
  writable?: (offset: number) => boolean;
  aborted?: () => void;
}
type Fake = { state: FakeState };

/** The prototype every fake response shares, as uWS's responses share theirs. */
const PROTO = {
  tryEnd(this: Fake, body: Buffer | string, total: number): [boolean, boolean] {
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    const taken = Math.min(size, this.state.accepts());
    this.state.written += taken;
    return [taken === size, this.state.written === total];
  },
  getWriteOffset(this: Fake) {
    return this.state.written;
  },
  onWritable(this: Fake, handler: (offset: number) => boolean) {
    this.state.writable = handler;
  },
  onAborted(this: Fake, handler: () => void) {
    this.state.aborted = handler;
  },
  close(this: Fake) {
    this.state.closed = true;
    this.state.aborted?.();
  },
  endWithoutBody() {},
  end() {},
  cork(cb: () => void) {
    cb();
  },
  onData() {},
  writeHeader() {},
  writeStatus() {},
  pause() {},
  resume() {},
};

/** A uWS response whose socket takes `accepts()` bytes at each write. */
function fakeResponse(accepts: () => number): { res: HttpResponse; state: FakeState } {
  const state: FakeState = { accepts, closed: false, written: 0 };
  const res = Object.create(PROTO) as Fake;
  res.state = state;
  return { res: res as unknown as HttpResponse, state };
}

const request = { getMethod: () => 'get', getUrl: () => '/big', getQuery: () => '', forEach: () => undefined } as unknown as HttpRequest;

function mount(stallMs: number): (res: HttpResponse, req: HttpRequest) => void {
  let handler!: (res: HttpResponse, req: HttpRequest) => void;
  const app = { get: (_p: string, h: typeof handler) => (handler = h) } as unknown as TemplatedApp;
  withConnectionRules(app, { stallMs, maxUrlBytes: 8192, maxHeaderBytes: 16384 }).get('/big', (res) => void res.end('x'.repeat(100_000)));
  return handler;
}

t.test('an answer the client takes nothing of closes the connection after the stall time', async (t) => {
  const { res, state } = fakeResponse(() => 0);
  mount(100)(res, request);
  t.notOk(state.closed, 'not at once');
  await new Promise((r) => setTimeout(r, 300));
  t.ok(state.closed, 'closed after the stall time');
});

t.test('a client that keeps reading is not cut off, however long the answer takes', async (t) => {
  let take = 1000;
  const { res, state } = fakeResponse(() => take);
  mount(100)(res, request);
  for (let i = 0; i < 10 && !state.closed; i++) {
    await new Promise((r) => setTimeout(r, 60));
    state.writable?.(state.written);
  }
  t.notOk(state.closed, 'still open after 600 ms of slow progress');
  take = 1e9;
  state.writable?.(state.written);
  t.equal(state.written, 100_000, 'the whole answer went out');
  await new Promise((r) => setTimeout(r, 200));
  t.notOk(state.closed, 'and the finished answer is not cut off afterwards');
});
