/**
 * Writing /ws/1.1/ responses: the envelope (docs/design.md §3) in JSON, XML or JSONP, the
 * `x-refrain-header-*` headers, the HTTP status (docs/api.md, "Status codes") and CORS.
 * Errors are RefrainErrors turned into `{header:{status_code, execute_time, hint}, body: []}`.
 */
import type { Outgoing } from '../http/route.js';
import { RefrainError, type ErrorCode } from '../errors.js';
import { toXml } from '../util/xml.js';

export type Format = 'json' | 'xml' | 'jsonp';

export interface OutputFormat {
  format: Format;
  /** JSONP callback name. */
  callback: string;
}

const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

/** `format` and `callback` of a request; a bad one is a 400 answered in JSON. */
export function outputFormat(query: Record<string, string>): OutputFormat {
  const format = (query.format ?? 'json').toLowerCase();
  if (format !== 'json' && format !== 'xml' && format !== 'jsonp') {
    throw new RefrainError('bad_request', 'format must be json, xml or jsonp');
  }
  const callback = query.callback ?? 'callback';
  if (format === 'jsonp' && (!CALLBACK.test(callback) || callback.length > 100)) {
    throw new RefrainError('bad_request', 'callback must be a JavaScript identifier such as cb or app.onLyrics');
  }
  return { format, callback };
}

export interface ResponseOptions {
  /** `200`: the public API's convention, the status only in the envelope; `mirror`: HTTP repeats it. */
  httpStatus: '200' | 'mirror';
  corsOrigin: string;
}

export interface Reply {
  status: number;
  header: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string>;
  hint?: string;
  /**
   * `body` already serialised as UTF-8 (cached answers): JSON output splices the bytes in instead of
   * re-serialising, and uWS gets bytes it need not transcode (lyrics are rarely pure ASCII).
   */
  bodyBytes?: Buffer;
}

/**
 * The envelope's status_code of each kind of error (docs/design.md §3). Kinds only the CLI meets
 * (startup, usage) never reach an answer; they would be 500s.
 */
export const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  quota_exceeded: 402,
  forbidden: 403,
  not_found: 404,
  not_allowed: 405,
  gone: 410,
  too_large: 413,
  rate_limited: 429,
  busy: 503,
  deadline: 503,
  unavailable: 503,
  integrity: 500,
  startup: 500,
  usage: 500,
  internal: 500,
};

export function errorReply(e: unknown): Reply {
  if (e instanceof RefrainError) return { status: STATUS[e.code], header: {}, body: [], headers: { ...e.headers }, hint: e.hint };
  return { status: 500, header: {}, body: [], headers: {}, hint: 'internal error' };
}

const CONTENT_TYPE: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  xml: 'text/xml; charset=utf-8',
  jsonp: 'application/javascript; charset=utf-8',
};

const EXPOSED = 'x-refrain-header-status, x-refrain-header-hint, x-refrain-header-execute-time, x-refrain-quota-remaining, Retry-After, Deprecation, Sunset, Link, WWW-Authenticate';

/** Header values must be visible ASCII. */
const headerSafe = (s: string): string => s.replace(/[^\x20-\x7e]/g, '?');

export interface RequestFacts {
  /** performance.now() when the request arrived (for execute_time). */
  started: number;
  /** The Origin header ('' when absent). */
  origin: string;
  /** The caller's requests left today, when its key has a quota. */
  quotaRemaining?: number;
}

/**
 * A reply as the answer to write. CORS headers go only to cross-origin requests (`origin` set):
 * same-origin and server-side clients never read them. HEAD gets the same headers and no body
 * (the connection rules, src/http/connection.ts).
 */
export function replyOutgoing(options: ResponseOptions, reply: Reply, out: OutputFormat, request: RequestFacts): Outgoing {
  const { started, origin } = request;
  const executeTime = (performance.now() - started) / 1000;
  let body: string | Buffer;
  if (out.format === 'xml') {
    const header: Record<string, unknown> = { status_code: reply.status, execute_time: executeTime, ...reply.header };
    if (reply.hint !== undefined) header.hint = reply.hint;
    // A body rendered in an index worker comes as JSON bytes only (ApiMethod.pool): XML is rare.
    const content = reply.body === undefined && reply.bodyBytes ? (JSON.parse(reply.bodyBytes.toString('utf8')) as unknown) : reply.body;
    body = toXml({ message: { header, body: content } });
  } else if (reply.bodyBytes && out.format === 'json') {
    body = Buffer.concat([Buffer.from(`{"message":{"header":${headerJson(reply, executeTime)},"body":`), reply.bodyBytes, ENVELOPE_END]);
  } else {
    const json = `{"message":{"header":${headerJson(reply, executeTime)},"body":${reply.bodyBytes?.toString() ?? JSON.stringify(reply.body)}}}`;
    body = out.format === 'jsonp' ? `${out.callback}(${json});` : json;
  }
  const headers: Record<string, string> = {
    'content-type': CONTENT_TYPE[out.format],
    'x-refrain-header-status': String(reply.status),
    'x-refrain-header-execute-time': executeTime.toFixed(6),
  };
  if (reply.hint !== undefined) headers['x-refrain-header-hint'] = headerSafe(reply.hint);
  // The caller's own count, so never part of a reply the response cache keeps.
  if (request.quotaRemaining !== undefined) headers['x-refrain-quota-remaining'] = String(request.quotaRemaining);
  if (origin) addCors(headers, options.corsOrigin);
  for (const name in reply.headers) headers[name] = headerSafe(reply.headers[name]);
  return { status: options.httpStatus === 'mirror' || keepsHttpStatus(reply) ? reply.status : 200, headers, body };
}

const ENVELOPE_END = Buffer.from('}}');

/**
 * Answers whose HTTP status carries behaviour, kept in both modes (docs/api.md, "Status codes"): a
 * `Retry-After` (429, 503) is read by HTTP clients, proxies and load balancers only on those statuses;
 * a Bearer challenge naming an error (`invalid_token` 401, `insufficient_scope` 403) answers a caller
 * that sent a token, and it is how OAuth clients learn to refresh one; 413 is sent before the method is
 * known, while the body is still arriving. A call without credentials, like every other error, keeps
 * the public API's HTTP 200.
 */
export const keepsHttpStatus = (reply: Reply): boolean =>
  reply.status === 413 || 'Retry-After' in reply.headers || (reply.headers['WWW-Authenticate']?.includes('error=') ?? false);

/** The envelope header as JSON: status_code, execute_time, the method's fields, then hint. */
function headerJson(reply: Reply, executeTime: number): string {
  let json = `{"status_code":${reply.status},"execute_time":${executeTime}`;
  for (const name in reply.header) json += `,${JSON.stringify(name)}:${JSON.stringify(reply.header[name]) ?? 'null'}`;
  if (reply.hint !== undefined) json += `,"hint":${JSON.stringify(reply.hint)}`;
  return `${json}}`;
}

/** The CORS headers of an answer to a cross-origin request. */
export function addCors(headers: Record<string, string>, origin: string): Record<string, string> {
  headers['access-control-allow-origin'] = origin;
  headers['access-control-expose-headers'] = EXPOSED;
  if (origin !== '*') headers.vary = 'Origin';
  return headers;
}

/** The answer to a CORS preflight. */
export function preflight(origin: string): Outgoing {
  const headers = addCors({}, origin);
  headers['access-control-allow-methods'] = 'GET, POST, OPTIONS';
  headers['access-control-allow-headers'] = 'Authorization, Content-Type';
  headers['access-control-max-age'] = '86400';
  return { status: 204, headers };
}
