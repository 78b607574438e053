/**
 * Writing /ws/1.1/ responses: the envelope (docs/design.md §3) in JSON, XML or JSONP, the
 * `x-refrain-header-*` headers, the HTTP status (docs/api.md, "Status codes") and CORS.
 * Errors are RefrainErrors turned into `{header:{status_code, execute_time, hint}, body: []}`.
 */
import type { HttpResponse } from './uws.js';
import { RefrainError } from '../errors.js';
import { STATUS_LINE } from './status.js';
import { toXml } from './xml.js';

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
    throw new RefrainError(400, 'format must be json, xml or jsonp');
  }
  const callback = query.callback ?? 'callback';
  if (format === 'jsonp' && (!CALLBACK.test(callback) || callback.length > 100)) {
    throw new RefrainError(400, 'callback must be a JavaScript identifier such as cb or app.onLyrics');
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

export function errorReply(e: unknown): Reply {
  if (e instanceof RefrainError) return { status: e.status, header: {}, body: [], headers: { ...e.headers }, hint: e.hint };
  return { status: 500, header: {}, body: [], headers: {}, hint: 'internal error' };
}

const CONTENT_TYPE: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  xml: 'text/xml; charset=utf-8',
  jsonp: 'application/javascript; charset=utf-8',
};

const EXPOSED = 'x-refrain-header-status, x-refrain-header-hint, x-refrain-header-execute-time, Retry-After, Deprecation, Sunset, Link, WWW-Authenticate';

/** Header values must be visible ASCII. */
const headerSafe = (s: string): string => s.replace(/[^\x20-\x7e]/g, '?');

export interface RequestFacts {
  /** performance.now() when the request arrived (for execute_time). */
  started: number;
  /** The Origin header ('' when absent). */
  origin: string;
  /** A HEAD request: headers and Content-Length only, never a body. */
  head: boolean;
}

/**
 * Write a reply; call inside res.cork() when not in the handler's synchronous part. CORS headers
 * go only to cross-origin requests (`origin` set): same-origin and server-side clients never read them.
 */
export function writeReply(res: HttpResponse, options: ResponseOptions, reply: Reply, out: OutputFormat, request: RequestFacts): void {
  const { started, origin } = request;
  const executeTime = (performance.now() - started) / 1000;
  let text: string | Buffer;
  if (out.format === 'xml') {
    const header: Record<string, unknown> = { status_code: reply.status, execute_time: executeTime, ...reply.header };
    if (reply.hint !== undefined) header.hint = reply.hint;
    text = toXml({ message: { header, body: reply.body } });
  } else if (reply.bodyBytes && out.format === 'json') {
    text = Buffer.concat([Buffer.from(`{"message":{"header":${headerJson(reply, executeTime)},"body":`), reply.bodyBytes, ENVELOPE_END]);
  } else {
    const json = `{"message":{"header":${headerJson(reply, executeTime)},"body":${reply.bodyBytes?.toString() ?? JSON.stringify(reply.body)}}}`;
    text = out.format === 'jsonp' ? `${out.callback}(${json});` : json;
  }

  const status = options.httpStatus === 'mirror' || keepsHttpStatus(reply) ? reply.status : 200;
  if (status !== 200) res.writeStatus(STATUS_LINE[status] ?? `${status} Error`); // uWS answers 200 OK by default
  res.writeHeader('content-type', CONTENT_TYPE[out.format]);
  res.writeHeader('x-refrain-header-status', String(reply.status));
  res.writeHeader('x-refrain-header-execute-time', executeTime.toFixed(6));
  if (reply.hint !== undefined) res.writeHeader('x-refrain-header-hint', headerSafe(reply.hint));
  if (origin) writeCors(res, options.corsOrigin);
  for (const name in reply.headers) res.writeHeader(name, headerSafe(reply.headers[name]));
  if (request.head) {
    // endWithoutBody(length) aborts the process in this uWS build (it does not count as a reply):
    // write the length ourselves and end without one.
    res.writeHeader('content-length', String(typeof text === 'string' ? Buffer.byteLength(text) : text.length));
    res.endWithoutBody();
  } else res.end(text);
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

export function writeCors(res: HttpResponse, origin: string): void {
  res.writeHeader('access-control-allow-origin', origin);
  res.writeHeader('access-control-expose-headers', EXPOSED);
  if (origin !== '*') res.writeHeader('vary', 'Origin');
}

/** Answer a CORS preflight. */
export function writePreflight(res: HttpResponse, origin: string): void {
  res.writeStatus(STATUS_LINE[204]);
  writeCors(res, origin);
  res.writeHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  res.writeHeader('access-control-allow-headers', 'Authorization, Content-Type');
  res.writeHeader('access-control-max-age', '86400');
  res.endWithoutBody();
}
