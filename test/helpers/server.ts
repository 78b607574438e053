/**
 * Starts the real server on port 0 with a temporary data directory holding the fixture catalog and
 * one key per plan, and gives tests a small HTTP client. Teardown closes the server.
 */
import type { Test } from 'tap';
import { Agent, setGlobalDispatcher } from 'undici';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { KeyStore, type NewKey } from '../../src/auth/keys.js';
import { parseCommand } from '../../src/config.js';
import { startServer, type RunningServer, type ServerOptions } from '../../src/app.js';
import { createLogger } from '../../src/log.js';
import { FIXTURE_RECORDS } from './fixtures.js';
import { tempDir, writeJsonl } from './tmp.js';

// Short keep-alive so a test process exits soon after its servers close (uWS keeps open
// connections alive after the listen socket closes).
setGlobalDispatcher(new Agent({ keepAliveTimeout: 100, keepAliveMaxTimeout: 100 }));

export interface Reply {
  /**
   * The answer's status: on /ws/1.1/ the envelope's (`x-refrain-header-status`), whichever HTTP status
   * the server's mode sends with it (checked against docs/api.md's rule on every call); else HTTP's.
   */
  status: number;
  /** The HTTP status line's code. */
  httpStatus: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface TestServer {
  server: RunningServer;
  url: string;
  data: string;
  keys: Record<'free' | 'basic' | 'enterprise', string>;
  /** GET a path; `params` are appended as the query string. */
  get(path: string, params?: Record<string, string | number | undefined>, init?: RequestInit): Promise<Reply>;
  /** A key with particular limits, and its key_id. */
  makeKey(spec: NewKey): { key: string; keyId: string };
}

export async function startTestServer(
  t: Test,
  options: { records?: unknown[]; flags?: string[]; server?: ServerOptions } = {},
): Promise<TestServer> {
  const data = tempDir(t);
  const catalog = Catalog.open(data);
  const file = writeJsonl(data, 'fixtures.jsonl', options.records ?? FIXTURE_RECORDS);
  const report = await importFiles(catalog, [file]);
  if (report.rejected) throw new Error(`fixture rejected: ${JSON.stringify(report.rejections)}`);
  const store = new KeyStore(catalog.root);
  const keys = {
    free: store.create({ plan: 'free' }).key,
    basic: store.create({ plan: 'basic' }).key,
    enterprise: store.create({ plan: 'enterprise' }).key,
  };
  await catalog.close();

  // One index worker per test server: tests run two files at a time on two cores. A loaded CI
  // machine must not turn a slow query into a 503: the deadline is generous here.
  // One HTTP thread unless a test asks for more (auto would depend on the machine's cores).
  const base = ['--data', data, '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent', '--index-threads', '1', '--index-deadline-ms', '15000', '--http-threads', '1'];
  const { config } = parseCommand('serve', [...base, ...(options.flags ?? [])], {});
  const server = await startServer(config, { logger: createLogger('silent'), ...options.server });
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${server.port}`;
  return {
    server, url, data, keys,
    async get(path, params = {}, init) {
      const qs = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)] as [string, string])).toString();
      const res = await fetch(`${url}${path}${qs ? `?${qs}` : ''}`, init);
      const text = await res.text();
      const envelope = res.headers.get('x-refrain-header-status');
      const status = envelope === null ? res.status : Number(envelope);
      if (envelope !== null) checkHttpStatus(config.httpStatus, status, res);
      return { status, httpStatus: res.status, headers: res.headers, text, json: jsonOrUndefined(text) };
    },
    makeKey(spec) {
      const { key, record } = server.keys.create(spec);
      return { key, keyId: record.key_id };
    },
  };
}

/**
 * The HTTP status a /ws/1.1/ answer must have (docs/api.md, "Status codes"): the envelope's in mirror
 * mode; else 200, except answers whose HTTP status carries behaviour (413, a Retry-After, a Bearer
 * error challenge). Throws, failing the test, when the server sent another.
 */
export function checkHttpStatus(mode: '200' | 'mirror', status: number, res: { status: number; headers: Headers }): void {
  const kept = status === 413 || res.headers.has('retry-after') || /error=/.test(res.headers.get('www-authenticate') ?? '');
  const expected = mode === 'mirror' || kept ? status : 200;
  if (res.status !== expected) throw new Error(`HTTP ${res.status} for envelope status ${status} in --http-status ${mode} mode; expected ${expected}`);
}

/** The status of a /ws/1.1/ answer fetched by hand: the envelope's, its HTTP status checked by checkHttpStatus. */
export function apiStatus(res: { status: number; headers: Headers }, mode: '200' | 'mirror' = '200'): number {
  const envelope = res.headers.get('x-refrain-header-status');
  if (envelope === null) return res.status;
  checkHttpStatus(mode, Number(envelope), res);
  return Number(envelope);
}

/** A body parsed as JSON, or undefined when it is not JSON. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
