/**
 * What every route's response goes through (mounted by `withConnectionRules`), because uWS leaves
 * it to the application:
 *
 * - Bounded output. `res.end(body)` in uWS copies whatever the client's socket does not take into
 *   a per-connection buffer without limit, so a client pipelining requests and reading nothing grew
 *   the process by gigabytes. Here `end` writes with `tryEnd`: the socket takes what it can, the rest
 *   stays with this response (the body the route already built, not a copy) and goes out as the
 *   client reads. A connection then carries at most one unsent response beyond its kernel buffer:
 *   uWS refuses (closes) a connection that sends another request while a response is still pending.
 *   A response the client takes nothing of for `stallMs` closes the connection.
 * - Streamed bodies (`write`, chunked encoding: the batch screening method) go through
 *   stream.ts, which hands uWS a chunk only once it has sent what it kept of the previous one,
 *   and holds what the writer had in flight meanwhile: bounded by what the writer runs at once,
 *   not by the length of the answer. Reading stays paused until the stream ends.
 * - In-order answers to requests pipelined behind an asynchronous one. uWS closes a connection
 *   whose next request arrives while an answer is pending (it does not queue them); reading is
 *   paused while an asynchronous answer is computed, so a request sent meanwhile waits in the socket
 *   and is read once the answer is written. (Requests that arrived in the same read as the
 *   asynchronous one are parsed by uWS before any answer exists: see docs/operations.md.)
 * - HEAD. A GET route answers HEAD with the same status and headers, and Content-Length, no body.
 * - Request limits uWS lets through: a URL over `maxUrlBytes` is answered 414, header fields over
 *   `maxHeaderBytes` together 431, before any route runs.
 *
 * On uWS's JavaScript fallback (`--allow-uws-fallback`) only the URL limit applies: it answers
 * through node:http, which has no `tryEnd` or `pause` but keeps pipelined answers in order, holds
 * back reading while output waits, and sends no body to HEAD by itself.
 */
import type { HttpRequest, HttpResponse, RecognizedString, TemplatedApp } from 'uWebSockets.js';
import { STATUS_LINE } from './status.js';
import { pathAndQuery, uwsIsNative } from './uws.js';

export interface ConnectionLimits {
  /** Milliseconds a response may wait without the client taking any of it before the connection is closed. */
  stallMs: number;
  /** Longest request target (path and query) accepted; 414 above. */
  maxUrlBytes: number;
  /** Largest sum of header names and values accepted; 431 above. */
  maxHeaderBytes: number;
}

type Handler = (res: HttpResponse, req: HttpRequest) => void;

/** State this module keeps on a response (uWS allows properties on it). */
interface Tracked extends HttpResponse {
  /** A HEAD request: `end(body)` sends the length, not the body. */
  _head?: boolean;
  /** Ended (or closed) as far as the route is concerned. */
  _ended?: boolean;
  /** Reading paused while an answer is computed. */
  _paused?: boolean;
  /** The route registered onData: it reads a body, so reading is paused only once the body is in. */
  _body?: boolean;
  /** The body is being streamed (`write`, chunked): reading stays paused until it ends. */
  _streaming?: boolean;
  _stallMs: number;
}

/** uWS's own methods (on the prototype of every response), captured from the first response. */
let native: Pick<HttpResponse, 'tryEnd' | 'endWithoutBody' | 'cork' | 'onData' | 'end' | 'close' | 'write'> | undefined;

function bytesOf(body: RecognizedString | undefined): Buffer {
  if (body === undefined) return EMPTY;
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof ArrayBuffer || body instanceof SharedArrayBuffer) return Buffer.from(body);
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

const EMPTY = Buffer.alloc(0);

/** The server is stopping: every answer from now on closes its connection (keep-alive ends). */
let closing = false;

/** After a stop: each connection closes once its current answer is written (an HTTP thread ends when its connections have). */
export function closeConnectionsAfterAnswer(): void {
  closing = true;
}

function end(this: Tracked, body?: RecognizedString, closeConnection?: boolean): HttpResponse {
  this._ended = true;
  resume(this);
  if (closing && !this._head) closeConnection = true;
  // A streamed body ends with its last chunk (its writer waited for the client as it went).
  if (closeConnection || this._streaming) return native!.end.call(this, body, closeConnection);
  // A string goes to uWS as it is (it encodes it once); bytes are made of it only when the client
  // does not take the whole answer at once.
  const total = typeof body === 'string' ? Buffer.byteLength(body) : body === undefined ? 0 : body.byteLength;
  if (this._head) {
    this.writeHeader('content-length', String(total));
    return native!.endWithoutBody.call(this);
  }
  const [, done] = native!.tryEnd.call(this, body ?? EMPTY, total);
  if (!done) drain(this, bytesOf(body));
  return this;
}

function endWithoutBody(this: Tracked, ...args: [length?: number, closeConnection?: boolean]): HttpResponse {
  this._ended = true;
  resume(this);
  // Passed on as given: uWS counts its arguments, and an explicit undefined length is taken for a
  // length (the response then never counts as answered).
  return native!.endWithoutBody.apply(this, args);
}

function close(this: Tracked): HttpResponse {
  this._ended = true;
  return native!.close.call(this);
}

function cork(this: Tracked, cb: () => void): HttpResponse {
  if (!this._streaming) resume(this);
  return native!.cork.call(this, cb);
}

/**
 * A chunk of a streamed body (chunked encoding). uWS keeps what the socket does not take and
 * returns false: stream.ts then queues what comes next until uWS has sent what it kept.
 */
function write(this: Tracked, chunk: RecognizedString): boolean {
  this._streaming = true;
  return native!.write.call(this, chunk);
}

function onData(this: Tracked, handler: (chunk: ArrayBuffer, isLast: boolean) => void): HttpResponse {
  this._body = true;
  return native!.onData.call(this, (chunk, isLast) => {
    handler(chunk, isLast);
    if (isLast && !this._ended) pause(this);
  });
}

/**
 * Install the rules on one response, before its route runs. Returns false when the request was
 * answered here (a limit).
 */
function admit(res: Tracked, req: HttpRequest, limits: ConnectionLimits): boolean {
  if (uwsIsNative) install(res, req, limits);
  return withinLimits(res, req, limits);
}

function install(res: Tracked, req: HttpRequest, limits: ConnectionLimits): void {
  if (!native) {
    const p = Object.getPrototypeOf(res) as HttpResponse;
    native = { tryEnd: p.tryEnd, endWithoutBody: p.endWithoutBody, cork: p.cork, onData: p.onData, end: p.end, close: p.close, write: p.write };
  }
  res._stallMs = limits.stallMs;
  if (req.getMethod() === 'head') res._head = true;
  res.end = end;
  res.endWithoutBody = endWithoutBody;
  res.cork = cork;
  res.onData = onData;
  res.close = close;
  res.write = write;
}

/**
 * Marks a response whose body is about to stream (before the cork that writes its head): reading
 * stays paused until the body ends, so a request pipelined behind it waits in the socket.
 */
export function beginStream(res: HttpResponse): void {
  (res as Tracked)._streaming = true;
}

/** Milliseconds a response may wait for a client that takes none of it (`--http-stall-timeout`). */
export function stallMsOf(res: HttpResponse): number {
  return (res as Tracked)._stallMs ?? DEFAULT_STALL_MS;
}

/** The stall time of a response not mounted through the rules (the fallback). */
const DEFAULT_STALL_MS = 10_000;

function withinLimits(res: HttpResponse, req: HttpRequest, limits: ConnectionLimits): boolean {
  const [path, query] = pathAndQuery(req);
  const url = path.length + query.length;
  if (url > limits.maxUrlBytes) {
    refuse(res, 414, `the request target is ${url} bytes long; at most ${limits.maxUrlBytes} are accepted`);
    return false;
  }
  // The fallback cannot list headers; node:http under it caps them itself (431 past 16 KB).
  if (!uwsIsNative) return true;
  let headers = 0;
  req.forEach((k, v) => (headers += k.length + v.length + 4));
  if (headers > limits.maxHeaderBytes) {
    refuse(res, 431, `the header fields are ${headers} bytes long; at most ${limits.maxHeaderBytes} are accepted`);
    return false;
  }
  return true;
}

function refuse(res: HttpResponse, status: 414 | 431, error: string): void {
  res.writeStatus(STATUS_LINE[status]);
  res.writeHeader('content-type', 'application/json; charset=utf-8');
  // Closed after the answer: what follows on the connection is not worth reading.
  res.end(JSON.stringify({ error }), true);
}

/** After the route returned: an answer still to come (computed elsewhere) pauses reading. */
function afterRoute(res: Tracked): void {
  if (uwsIsNative && !res._ended && !res._body) pause(res);
}

function pause(res: Tracked): void {
  if (res._paused) return;
  res._paused = true;
  res.pause();
}

function resume(res: Tracked): void {
  if (!res._paused) return;
  res._paused = false;
  res.resume();
}

/**
 * The part of `bytes` the socket did not take goes out as the client reads; the connection is
 * closed when the client takes nothing for `stallMs`.
 */
function drain(res: Tracked, bytes: Buffer): void {
  const n = native!;
  const total = bytes.length;
  const stall = setTimeout(() => res.close(), res._stallMs);
  stall.unref();
  res.onAborted(() => clearTimeout(stall));
  res.onWritable((offset) => {
    const [ok, done] = n.tryEnd.call(res, bytes.subarray(offset), total);
    if (done) clearTimeout(stall);
    else if (ok || res.getWriteOffset() > offset) stall.refresh();
    return ok;
  });
}

/**
 * The app the routes are mounted on, with the rules above on every request. GET routes are
 * mounted for HEAD too (unless a route mounts HEAD itself); `finish()` does that once every route
 * is mounted.
 */
export function withConnectionRules(app: TemplatedApp, limits: ConnectionLimits): TemplatedApp & { finish(): void } {
  const wrap = (handler: Handler): Handler => (res, req) => {
    if (!admit(res as Tracked, req, limits)) return;
    handler(res, req);
    afterRoute(res as Tracked);
  };
  const gets: [string, Handler][] = [];
  const heads = new Set<string>();
  const ruled = Object.create(app) as TemplatedApp & { finish(): void };
  const verbs = ['post', 'options', 'del', 'patch', 'put', 'connect', 'trace', 'any'] as const;
  for (const verb of verbs) {
    ruled[verb] = (pattern: RecognizedString, handler: Handler) => {
      app[verb](pattern, wrap(handler));
      return ruled;
    };
  }
  ruled.get = (pattern: RecognizedString, handler: Handler) => {
    app.get(pattern, wrap(handler));
    gets.push([String(pattern), handler]);
    return ruled;
  };
  ruled.head = (pattern: RecognizedString, handler: Handler) => {
    app.head(pattern, wrap(handler));
    heads.add(String(pattern));
    return ruled;
  };
  ruled.finish = () => {
    for (const [pattern, handler] of gets) if (!heads.has(pattern)) app.head(pattern, wrap(handler));
  };
  return ruled;
}
