/**
 * The HTTP plumbing of the OAuth routes: reading a uWS request up front, form bodies (RFC 6749
 * §3.1/§3.2 rules), cookies, answers as values (`Outgoing`) written in one place with the headers
 * every page and every token answer must carry, and HTML escaping.
 *
 * Handlers are plain functions from `Incoming` to `Outgoing` (or a promise of one): `route` owns
 * the uWS contract (docs/design.md §10) — `req` is read before anything else, `onAborted` is registered
 * before any await, and the answer is written corked. The access log gets the path, never the query
 * or the body: OAuth queries and bodies carry codes, secrets and passwords.
 */
import type { Logger } from 'pino';
import { pathAndQuery, type HttpRequest, type HttpResponse } from '../http/uws.js';
import { readBody } from '../http/body.js';
import { STATUS_LINE } from '../http/status.js';
import { RefrainError } from '../errors.js';
import { OAuthError } from './errors.js';

export interface Incoming {
  method: string;
  path: string;
  /** Raw query string, without the `?`. */
  query: string;
  authorization: string;
  contentType: string;
  cookie: string;
  /** The peer address (the last proxy's when behind one). */
  ip: string;
  /** The request body, when the route reads one. */
  body: Buffer;
}

export interface Outgoing {
  status: number;
  headers: Record<string, string>;
  /** `Set-Cookie` values, one header each. */
  cookies: string[];
  body: string;
}

export type Handler = (incoming: Incoming) => Outgoing | Promise<Outgoing>;

/** Largest OAuth form accepted: a form holds a few short fields. */
export const FORM_LIMIT = 16 * 1024;

export interface RouteOptions {
  logger: Logger;
  /** Log one line per request: verb, path (no query), status, milliseconds. */
  accessLog: boolean;
  /** Read the body first (POST routes), capped at FORM_LIMIT. */
  body?: boolean;
  /** The answer to an error the handler did not turn into one (JSON for endpoints, a page for pages). */
  fail: (e: unknown) => Outgoing;
}

/** A uWS handler running `handler`, whether it answers at once or after awaiting. */
export function route(handler: Handler, options: RouteOptions): (res: HttpResponse, req: HttpRequest) => void {
  return (res, req) => {
    const started = performance.now();
    const [path, query] = pathAndQuery(req);
    const incoming: Incoming = {
      method: req.getMethod(),
      path,
      query,
      authorization: req.getHeader('authorization'),
      contentType: req.getHeader('content-type'),
      cookie: req.getHeader('cookie'),
      ip: Buffer.from(res.getRemoteAddressAsText()).toString(),
      body: EMPTY,
    };
    const send = (out: Outgoing): void => {
      write(res, out);
      if (options.accessLog) options.logger.info({ verb: incoming.method, path, status: out.status, ms: performance.now() - started }, 'request');
    };
    const failed = (e: unknown): Outgoing => {
      // Only the error itself: never the request, whose query or body may hold credentials.
      if (!(e instanceof OAuthError) && !(e instanceof PageError) && !isBodyLimit(e)) options.logger.error({ err: e }, 'OAuth handler failed');
      return options.fail(e);
    };
    if (!options.body) {
      let out: Outgoing | Promise<Outgoing>;
      try {
        out = handler(incoming);
      } catch (e) {
        out = failed(e);
      }
      if (!(out instanceof Promise)) return send(out);
      return later(res, out.catch(failed), send, options.logger);
    }
    const answer = readBody(res, FORM_LIMIT).then((body) => handler({ ...incoming, body }));
    later(res, answer.catch(failed), send, options.logger);
  };
}

const EMPTY = Buffer.alloc(0);

const isBodyLimit = (e: unknown): boolean => e instanceof RefrainError && e.status === 413;

/** Registers onAborted at once (before the caller returns to uWS), writes corked when settled. */
function later(res: HttpResponse, answer: Promise<Outgoing>, send: (out: Outgoing) => void, logger: Logger): void {
  let aborted = false;
  res.onAborted(() => (aborted = true));
  answer
    .then((out) => {
      if (!aborted) res.cork(() => send(out));
    })
    .catch((err: unknown) => logger.warn({ err }, 'writing an OAuth response failed'));
}

function write(res: HttpResponse, out: Outgoing): void {
  res.writeStatus(STATUS_LINE[out.status] ?? `${out.status} Error`);
  for (const name in out.headers) res.writeHeader(name, out.headers[name]);
  for (const cookie of out.cookies) res.writeHeader('set-cookie', cookie);
  res.end(out.body);
}

/** An error answered with an HTML page (the authorization endpoint's own errors, never redirected). */
export class PageError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 429 | 503,
    readonly title: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${title}: ${detail}`);
    this.name = 'PageError';
  }
}

/**
 * The fields of a query string or form body. RFC 6749 §3.1: a parameter sent without a value is
 * treated as omitted, and none may be sent twice (`invalid_request`; `duplicate` names it).
 */
export function parseParams(text: string): { params: Record<string, string>; duplicate?: string } {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  let duplicate: string | undefined;
  for (const [name, value] of new URLSearchParams(text)) {
    if (value === '') continue;
    if (name in params) duplicate ??= name;
    params[name] = value;
  }
  return { params, duplicate };
}

/** The form of a POST: `application/x-www-form-urlencoded` only, no parameter twice. */
export function formBody(incoming: Incoming): Record<string, string> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(incoming.contentType)) {
    throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  const { params, duplicate } = parseParams(incoming.body.toString('utf8'));
  if (duplicate) throw new OAuthError('invalid_request', `parameter ${duplicate} is repeated`);
  return params;
}

/** A cookie's value from the Cookie header, or undefined. */
export function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML element content and quoted attribute values. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** Headers of every login, consent and error page (clickjacking, referrer leaks, caching). */
export function pageHeaders(csp: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
}

/** A JSON answer of the token and introspection endpoints (RFC 6749 §5.1: never cached). */
export function jsonAnswer(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): Outgoing {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache', ...headers },
    cookies: [],
    body: JSON.stringify(value),
  };
}

/** The JSON answer of an error at the token or introspection endpoint. */
export function jsonFailure(e: unknown): Outgoing {
  if (e instanceof OAuthError) return jsonAnswer(e.status, e.toJSON(), e.headers);
  if (isBodyLimit(e)) return jsonAnswer(413, { error: 'invalid_request', error_description: `the body is larger than ${FORM_LIMIT} bytes` });
  return jsonAnswer(500, { error: 'server_error', error_description: 'internal error' });
}

/** A redirect; `status` 303 after a POST (RFC 9110 §15.4.4), and for the authorization endpoint's answers. */
export function redirect(location: string, cookies: string[] = []): Outgoing {
  return {
    status: 303,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    cookies,
    body: '',
  };
}
