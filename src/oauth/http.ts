/**
 * The HTTP plumbing of the OAuth routes: reading a uWS request up front, form bodies (RFC 6749
 * §3.1/§3.2 rules), cookies, answers as values (`Outgoing`) written in one place with the headers
 * every page and every token answer must carry, and HTML escaping.
 *
 * Handlers are plain functions from `Incoming` to `Outgoing` (or a promise of one), run by the route
 * layer every route uses (src/http/route.ts). The access log gets the path, never the query or the
 * body: OAuth queries and bodies carry codes, secrets and passwords.
 */
import type { Logger } from 'pino';
import type { Handler, Incoming, Outgoing, RouteOptions } from '../http/route.js';
import { isError } from '../errors.js';
import { OAuthError, PageError } from './errors.js';

/** Largest OAuth form accepted: a form holds a few short fields. */
export const FORM_LIMIT = 16 * 1024;

export interface OAuthRouteOptions {
  logger: Logger;
  /** Log one line per request: verb, path (no query), status, milliseconds. */
  accessLog: boolean;
  /** Read the form body first (POST routes), capped at FORM_LIMIT. */
  body?: boolean;
  /** The answer to an error the handler did not turn into one (JSON for endpoints, a page for pages). */
  fail: (e: unknown) => Outgoing;
}

/**
 * The route options of an OAuth endpoint or page: the peer address is read (sessions are capped per
 * address), errors nobody expects are logged — the error only, never the request, whose query or
 * body may hold credentials — and the access log gets the path, never the query.
 */
export function oauthRoute(options: OAuthRouteOptions): RouteOptions {
  const { logger } = options;
  return {
    logger,
    ip: true,
    body: options.body ? FORM_LIMIT : undefined,
    fail: (e) => {
      if (!(e instanceof OAuthError) && !(e instanceof PageError) && !isBodyLimit(e)) logger.error({ err: e }, 'OAuth handler failed');
      return options.fail(e);
    },
    written: options.accessLog ? (incoming, out, ms) => logger.info({ verb: incoming.method, path: incoming.path, status: out.status, ms }, 'request') : undefined,
  };
}

export type { Handler, Incoming, Outgoing };

const isBodyLimit = (e: unknown): boolean => isError(e, 'too_large');

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
