/**
 * Loads uWebSockets.js (the npm alias of docs/design.md §1) and tells whether its native binary loaded.
 * The package silently falls back to a slow JavaScript shim when the binary does not load; that shim
 * lacks the native module's extra exports (`getParts` among them), which is how we detect it.
 */
import { createRequire } from 'node:module';
import type * as UWS from 'uWebSockets.js';

const require = createRequire(import.meta.url);

// Silence the package's own console warning: we report the fallback ourselves, as a refusal to start.
const warn = console.warn;
const log = console.log;
console.warn = () => {};
console.log = () => {};
let loaded: typeof UWS;
try {
  loaded = require('uWebSockets.js') as typeof UWS;
} finally {
  console.warn = warn;
  console.log = log;
}

export const uws = loaded;

/** True when the native uWS binary is in use (not the JavaScript fallback). */
export const uwsIsNative: boolean = typeof (loaded as unknown as { getParts?: unknown }).getParts === 'function';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';

/**
 * Path and query string of a request. The JavaScript fallback's `getUrl()` includes the query and
 * its `getQuery()` throws on every relative URL, so there the two are split from `getUrl()`.
 */
export function pathAndQuery(req: import('uWebSockets.js').HttpRequest): [string, string] {
  if (uwsIsNative) return [req.getUrl(), req.getQuery() ?? ''];
  const url = req.getUrl();
  const q = url.indexOf('?');
  return q === -1 ? [url, ''] : [url.slice(0, q), url.slice(q + 1)];
}
