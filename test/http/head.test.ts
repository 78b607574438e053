/**
 * HEAD on every route (issue 11, item 9): the GET's status and headers, Content-Length of the body
 * GET sends, and no body. Load balancers' HEAD health checks used to get 404 outside /ws/1.1/.
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { parseResponse, raw } from '../helpers/raw.js';

/** Headers that may differ between two answers to the same request. */
const VOLATILE = new Set(['date', 'x-refrain-header-execute-time', 'content-length']);

t.test('HEAD answers like GET without a body, on every route', async (t) => {
  const s = await startTestServer(t);
  const key = s.keys.enterprise;
  const paths = [
    '/healthz',
    '/readyz',
    '/metrics',
    '/oauth/jwks',
    '/.well-known/openid-configuration',
    '/.well-known/oauth-authorization-server',
    '/oauth/authorize', // 400 page: no client_id
    '/lyrics/1/artist/track', // the share page
    '/lyrics/999999/x/y', // its 404
    '/artist/100/The-Fixtures', // an artist page
    '/artist/100/The-Fixtures/edit',
    '/artist/999999/x', // its 404
    '/t1.0/img/not-a-token', // a tracking URL, unknown token
    '/feeds/nope.jsonl.gz', // a feed download without a signature
    '/no/such/path',
    '/ws/1.1/openapi.json',
    `/ws/1.1/track.get?track_id=1&apikey=${key}`,
    `/ws/1.1/chart.tracks.get?page_size=2&apikey=${key}`,
  ];
  for (const path of paths) {
    const request = (verb: string) => raw(s.server.port, [`${verb} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`], 5000);
    const get = parseResponse((await request('GET')).text);
    const headRaw = await request('HEAD');
    const head = parseResponse(headRaw.text);
    t.equal(head.status, get.status, `HEAD ${path}: status ${get.status} as GET`);
    t.equal(head.body, '', `HEAD ${path}: no body`);
    t.ok(headRaw.closed, `HEAD ${path}: answered and closed (Connection: close)`);
    // Bodies that change between two requests (counters, execute_time digits, the verb in a 404) may
    // differ by a few bytes.
    const length = Number(head.headers['content-length']);
    const expected = Buffer.byteLength(get.body, 'latin1');
    t.ok(expected > 0 && Math.abs(length - expected) <= Math.max(16, expected * 0.02), `HEAD ${path}: Content-Length ${length} of the GET body (${expected})`);
    const strip = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => !VOLATILE.has(k)));
    t.same(strip(head.headers), strip(get.headers), `HEAD ${path}: the GET's headers`);
  }
});

t.test('a HEAD answer does not spill into the next pipelined answer', async (t) => {
  const s = await startTestServer(t);
  const r = await raw(s.server.port, ['HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], 5000);
  t.same(r.statuses, [200, 200]);
  const second = r.text.slice(r.text.indexOf('HTTP/1.1', 5));
  t.match(parseResponse(second).body, /"status":"ready"/);
  t.equal(parseResponse(r.text.slice(0, r.text.indexOf('HTTP/1.1', 5))).body, '', 'the HEAD answer ends at its headers');
});
