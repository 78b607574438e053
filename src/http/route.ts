/**
 * The one way a route meets uWS. A route is a plain function from `Incoming` (the request, read up
 * front) to `Outgoing` (the answer, as a value) or a promise of one; `route` owns the uWS contract
 * (docs/design.md §10) so no route repeats it:
 *
 * - `req` is valid only until the handler returns or awaits: everything a route may need from it
 *   (verb, path, query, route parameters, the few headers routes read) is copied into `Incoming`.
 * - An answer given later registers `onAborted` before the handler's tick ends, and is written
 *   inside `res.cork()`, never to a connection that went away.
 * - A body is read as it arrives, capped (413 past the cap), either before the handler runs
 *   (`RouteOptions.body`) or when the handler asks for it (`Incoming.readBody`, in its first tick).
 * - An error the handler did not turn into an answer becomes `RouteOptions.fail`'s answer.
 *
 * Every route is mounted through the connection rules (connection.ts), which bound what a
 * connection may hold unsent and answer HEAD without a body.
 */
import { createReadStream } from 'node:fs';
import type { Logger } from 'pino';
import { pathAndQuery, type HttpRequest, type HttpResponse } from './uws.js';
import { readBody } from './body.js';
import { STATUS_LINE } from './status.js';
import { beginStream, stallMsOf } from './connection.js';
import { ResponseStream, type BodyStream } from './stream.js';

export type { BodyStream } from './stream.js';

export interface Incoming {
  /** performance.now() when the request arrived. */
  started: number;
  /** The verb, lower case (`get`, `head`, `post`, …). */
  method: string;
  path: string;
  /** Raw query string, without the `?`. */
  query: string;
  /** The route's parameters (`/t1.0/:kind/:token` → [kind, token]), as many as `RouteOptions.params`. */
  params: string[];
  authorization: string;
  contentType: string;
  /** Declared Content-Length (0 when absent). */
  contentLength: number;
  origin: string;
  cookie: string;
  ifNoneMatch: string;
  /** The peer address (the last proxy's when behind one); '' unless `RouteOptions.ip`. */
  ip: string;
  /** The body, when the route reads it first (`RouteOptions.body`); empty otherwise. */
  body: Buffer;
  /**
   * Starts reading the body, at most `maxBytes` (413 beyond, without buffering the rest). Only in
   * the handler's first tick: uWS hands the body to whoever listens when it arrives.
   */
  readBody(maxBytes: number): Promise<Buffer>;
}

export interface Outgoing {
  status: number;
  headers?: Readonly<Record<string, string>>;
  /** `Set-Cookie` values, one header each. */
  cookies?: readonly string[];
  body?: string | Buffer;
  /** A file sent as the body instead, streamed with backpressure (`size` bytes from its start). */
  file?: { path: string; size: number };
  /**
   * A body of unknown length produced as it goes (chunked encoding), after the status and headers:
   * called once with the stream to write it to.
   */
  stream?: (body: BodyStream) => void;
}

export type Handler = (incoming: Incoming) => Outgoing | Promise<Outgoing>;

export interface RouteOptions {
  /** Logs what cannot be answered any more (the connection failed while writing). */
  logger: Logger;
  /** The answer to an error the handler threw or rejected with. */
  fail: (e: unknown, incoming: Incoming) => Outgoing;
  /** Route parameters to read (the pattern's `:name`s). */
  params?: number;
  /** Read the peer address (tracking, OAuth sessions). */
  ip?: boolean;
  /** Read the body, at most this many bytes, before the handler runs. */
  body?: number;
  /** Called once the answer is written (access logs); `ms` since the request arrived. */
  written?: (incoming: Incoming, out: Outgoing, ms: number) => void;
}

const EMPTY = Buffer.alloc(0);

/** A uWS handler running `handler`, whether it answers at once or after awaiting. */
export function route(handler: Handler, options: RouteOptions): (res: HttpResponse, req: HttpRequest) => void {
  return (res, req) => {
    const exchange = new Exchange(res, req, options);
    if (options.body !== undefined) {
      return later(
        exchange,
        exchange.readBody(options.body).then((body) => {
          exchange.body = body;
          return handler(exchange);
        }),
        options,
      );
    }
    let out: Outgoing | Promise<Outgoing>;
    try {
      out = handler(exchange);
    } catch (e) {
      out = options.fail(e, exchange);
    }
    if (out instanceof Promise) later(exchange, out, options);
    else send(exchange, out, options);
  };
}

/**
 * One request and its response: the request as read up front, and what the route layer keeps of
 * the response. A class rather than closures: an answer given at once allocates nothing else.
 */
class Exchange implements Incoming {
  readonly started = performance.now();
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly params: string[];
  readonly authorization: string;
  readonly contentType: string;
  readonly contentLength: number;
  readonly origin: string;
  readonly cookie: string;
  readonly ifNoneMatch: string;
  readonly ip: string;
  body: Buffer = EMPTY;
  /** The client went away (known once `watch` was called). */
  aborted = false;
  private watching = false;

  constructor(
    readonly res: HttpResponse,
    req: HttpRequest,
    options: RouteOptions,
  ) {
    [this.path, this.query] = pathAndQuery(req);
    this.method = req.getMethod();
    this.params = options.params ? Array.from({ length: options.params }, (_, i) => req.getParameter(i) ?? '') : NO_PARAMS;
    this.authorization = req.getHeader('authorization');
    this.contentType = req.getHeader('content-type');
    this.contentLength = Number(req.getHeader('content-length')) || 0;
    this.origin = req.getHeader('origin');
    this.cookie = req.getHeader('cookie');
    this.ifNoneMatch = req.getHeader('if-none-match');
    this.ip = options.ip ? Buffer.from(res.getRemoteAddressAsText()).toString() : '';
  }

  /** Called when the client goes away (a streamed answer stops producing). */
  private abortListeners?: (() => void)[];

  /** Registers `onAborted` (once): before the handler's tick ends whenever the answer comes later. */
  watch(): void {
    if (this.watching) return;
    this.watching = true;
    this.res.onAborted(() => {
      this.aborted = true;
      for (const listener of this.abortListeners ?? []) listener();
    });
  }

  onAbort(listener: () => void): void {
    (this.abortListeners ??= []).push(listener);
  }

  readBody(maxBytes: number): Promise<Buffer> {
    this.watch();
    return readBody(this.res, maxBytes);
  }
}

const NO_PARAMS: string[] = [];

function send(exchange: Exchange, out: Outgoing, options: RouteOptions): void {
  if (out.stream) {
    beginStream(exchange.res);
    exchange.watch();
    writeHead(exchange.res, out);
    out.stream(new ResponseStream(exchange.res, (stop) => exchange.onAbort(stop), stallMsOf(exchange.res)));
  } else {
    write(exchange.res, out, exchange.method === 'head', options.logger);
  }
  options.written?.(exchange, out, performance.now() - exchange.started);
}

/** An answer to come: written corked once it settles, unless the client went away meanwhile. */
function later(exchange: Exchange, answer: Promise<Outgoing>, options: RouteOptions): void {
  exchange.watch();
  answer
    .catch((e: unknown) => options.fail(e, exchange))
    .then((out) => {
      if (exchange.aborted) return;
      if (out.stream) beginStream(exchange.res);
      exchange.res.cork(() => send(exchange, out, options));
    })
    // Writing fails only if the connection went away in between: log it, never crash on it.
    .catch((err: unknown) => options.logger.warn({ err }, 'writing a response failed'));
}

/** The status line and headers of an answer. */
function writeHead(res: HttpResponse, out: Outgoing): void {
  if (out.status !== 200) res.writeStatus(STATUS_LINE[out.status] ?? `${out.status} Error`); // uWS sends 200 OK by itself
  if (out.headers) for (const name in out.headers) res.writeHeader(name, out.headers[name]);
  if (out.cookies) for (const cookie of out.cookies) res.writeHeader('set-cookie', cookie);
}

/** Writes an answer; inside `res.cork()` unless in the handler's first tick (uWS corks that itself). */
function write(res: HttpResponse, out: Outgoing, head: boolean, logger: Logger): void {
  writeHead(res, out);
  if (out.file && head) {
    // endWithoutBody(length) aborts the process in this uWS build: the length is written as a header.
    res.writeHeader('content-length', String(out.file.size));
    return void res.endWithoutBody();
  }
  if (out.file) return sendFile(res, out.file.path, out.file.size, logger);
  // No body on these by definition (RFC 9110 §15.3.5, §15.4.5); Content-Length is not sent either.
  if (out.status === 204 || out.status === 304) return void res.endWithoutBody();
  res.end(out.body ?? '');
}

/** Bytes read from disk at a time. */
const READ_CHUNK = 256 * 1024;

/** Sends `size` bytes of `file` as the body, pausing the read while the socket is full. */
function sendFile(res: HttpResponse, file: string, size: number, logger: Logger): void {
  const input = createReadStream(file, { highWaterMark: READ_CHUNK, end: size - 1 });
  let finished = false;
  /** A chunk the socket did not take whole yet: the read is paused until it drains. */
  let pending = false;
  const stop = () => {
    finished = true;
    input.destroy();
  };
  res.onAborted(stop);
  input.on('data', (data) => {
    if (finished) return;
    const chunk = data as Buffer;
    res.cork(() => {
      const offset = res.getWriteOffset();
      const [ok, done] = res.tryEnd(chunk, size);
      if (done) return stop();
      if (ok) return;
      pending = true;
      input.pause();
      res.onWritable((writable) => {
        const [retried, complete] = res.tryEnd(chunk.subarray(writable - offset), size);
        if (complete) stop();
        else if (retried) {
          pending = false;
          input.resume();
        }
        return retried;
      });
    });
  });
  const cut = (err?: Error) => {
    if (finished || (!err && pending)) return;
    // The file ended early or could not be read: the client must not take a short body for a whole one.
    if (err) logger.warn({ err, file }, 'reading a file to send failed');
    finished = true;
    res.cork(() => res.close());
  };
  input.on('error', cut);
  input.on('end', () => cut());
}

/** A JSON answer (the operational endpoints, unknown routes). */
export function jsonOutgoing(status: number, value: unknown): Outgoing {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(value) };
}
