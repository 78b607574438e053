import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('quotas, rate limits and plans', async (t) => {
  let now = Date.parse('2026-11-22T23:59:58Z');
  const s = await startTestServer(t, { server: { clock: () => now } });

  t.test('402 once the daily quota is spent; a new UTC day renews it', async (t) => {
    const { key } = s.makeKey({ plan: 'basic', quota: 3 });
    for (let i = 0; i < 3; i++) t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key })).status, 200);
    const spent = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key });
    t.equal(spent.status, 402);
    t.match(spent.json.message.header.hint, /daily quota of 3 requests reached/);
    t.same(spent.json.message.body, []);
    now += 5000;
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key })).status, 200, 'next day');
  });

  t.test('429 with Retry-After past the rate limit', async (t) => {
    const { key } = s.makeKey({ plan: 'enterprise', rate: 2 });
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key })).status, 200);
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key })).status, 200);
    const limited = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key });
    t.equal(limited.status, 429);
    t.equal(limited.headers.get('retry-after'), '30');
    t.match(limited.json.message.header.hint, /rate limit of 2 requests per minute/);
    now += 30_000;
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key })).status, 200, 'a token came back');
  });

  t.test('usage counts survive a flush', async (t) => {
    const { key, keyId } = s.makeKey({ plan: 'basic', quota: 10 });
    await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key });
    await s.server.usage.flush();
    t.equal(s.server.usage.today(keyId, now), 1);
  });
});
