/**
 * Loads uWebSockets.js (the npm alias of DESIGN.md §1) and tells whether its native binary loaded.
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
