import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import echo from '../fixtures/echo.post.js';
import type { ApiMethod } from '../../src/api/method.js';

t.test('request bodies: JSON, size cap, errors', async (t) => {
  const s = await startTestServer(t, { flags: ['--max-body-bytes', '2048'], server: { extraMethods: [echo as unknown as ApiMethod] } });
  const post = (body: string | Uint8Array, type = 'application/json') =>
    s.get('/ws/1.1/test.echo.post', { apikey: s.keys.basic }, { method: 'POST', body, headers: { 'content-type': type } });

  const ok = await post(JSON.stringify({ data: { text: 'héllo wörld' } }));
  t.equal(ok.status, 200);
  t.same(ok.json.message.body, { text: 'héllo wörld', length: 11 });

  const big = 'x'.repeat(1500);
  const chunked = await s.get('/ws/1.1/test.echo.post', { apikey: s.keys.basic }, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new ReadableStream({
      start(c) {
        // Several chunks: each must be copied before uWS reuses its memory.
        for (const part of [`{"data":{"text":"`, big.slice(0, 700), big.slice(700), '"}}']) c.enqueue(new TextEncoder().encode(part));
        c.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
  t.equal(chunked.status, 200);
  t.equal(chunked.json.message.body.text, big);

  const tooBig = await post(JSON.stringify({ data: { text: 'y'.repeat(3000) } }));
  t.equal(tooBig.status, 413);
  t.match(tooBig.json.message.header.hint, /larger than 2048 bytes/);

  const notJson = await post('{"data":');
  t.equal(notJson.status, 400);
  t.equal(notJson.json.message.header.hint, 'the body is not valid JSON');
  const wrongType = await post('data=1', 'application/x-www-form-urlencoded');
  t.equal(wrongType.status, 400);
  t.match(wrongType.json.message.header.hint, /Content-Type: application\/json/);
  const missing = await post(JSON.stringify({ data: {} }));
  t.equal(missing.status, 400);
  t.equal(missing.json.message.header.hint, 'data.text is required', 'the hint names the field inside the body');

  const get = await s.get('/ws/1.1/test.echo.post', { apikey: s.keys.basic });
  t.equal(get.status, 405);
});
