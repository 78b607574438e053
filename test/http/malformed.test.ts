/**
 * Requests uWS or Refrain refuse (issue 11, item 11): each gets a status where the server sees the
 * request, and otherwise the behaviour docs/operations.md documents ("Requests uWebSockets.js
 * refuses"); none leaves the connection hanging past uWS's own timeout (about 10 s).
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { raw, type RawResult } from '../helpers/raw.js';

const HANG_BOUND_MS = 20_000;

t.test('oversized and malformed requests', async (t) => {
  const s = await startTestServer(t);
  const port = s.server.port;
  const send = (parts: (string | number)[]) => raw(port, parts, HANG_BOUND_MS);
  const headers = (n: number) => Array.from({ length: n }, (_, i) => `x-h${i}: v\r\n`).join('');
  const cases: Record<string, Promise<RawResult>> = {
    longUrl: send([`GET /healthz?${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]),
    bigHeader: send([`GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(64 * 1024)}\r\n\r\n`]),
    fineUrl: send([`GET /healthz?${'a'.repeat(3000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]),
    fortyEightHeaders: send([`GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers(46)}\r\n`]),
    tooManyHeaders: send([`GET /healthz HTTP/1.1\r\nHost: x\r\n${headers(60)}\r\n`]),
    splitBigHead: send([`GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(3000)}`, 100, `${'a'.repeat(3000)}\r\n\r\n`]),
    unknownVerb: send(['FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n']),
    noHost: send(['GET /healthz HTTP/1.1\r\n\r\n']),
    crInHeader: send(['GET /healthz HTTP/1.1\r\nHost: x\r\nx-a: b\rc\r\n\r\n']),
    nulInHeader: send(['GET /healthz HTTP/1.1\r\nHost: x\r\nx-a: b\0c\r\n\r\n']),
    http10: send(['GET /healthz HTTP/1.0\r\n\r\n']),
  };
  const r: Record<string, RawResult> = {};
  for (const [name, p] of Object.entries(cases)) r[name] = await p;

  // Seen by Refrain: answered, then closed.
  t.same(r.longUrl.statuses, [414], 'a 70 KB URL: 414');
  t.match(r.longUrl.text, /at most 8192 are accepted/);
  t.ok(r.longUrl.closed, '414 closes the connection');
  t.same(r.bigHeader.statuses, [431], 'a 64 KB header: 431');
  t.ok(r.bigHeader.closed, '431 closes the connection');
  t.same(r.fineUrl.statuses, [200], 'a 3 KB URL is fine');
  t.same(r.fortyEightHeaders.statuses, [200], '48 header fields are fine');

  // Refused by uWS before Refrain sees them: no status, but closed (documented).
  for (const name of ['tooManyHeaders', 'splitBigHead', 'unknownVerb', 'noHost', 'crInHeader', 'nulInHeader', 'http10']) {
    t.same(r[name].statuses, [], `${name}: no status (uWS refuses it in its parser)`);
    t.ok(r[name].closed, `${name}: closed after ${Math.round(r[name].ms)} ms, not left hanging`);
  }
  t.ok(r.unknownVerb.ms < 2000 && r.splitBigHead.ms < 2000, 'an unknown verb and a split head over 4 KB are closed at once');
});
