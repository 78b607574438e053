/**
 * Tracking URLs expire, and a repeat from the same address within the replay window counts once
 * (issue 11, item 8: 300 replays of one pixel URL added 300 hits, and tokens never expired).
 */
import t from 'tap';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';
import { ReplayWindow } from '../../src/auth/hits.js';
import { Links } from '../../src/api/links.js';
import { parseCommand } from '../../src/config.js';

const DAY = 86_400_000;

t.test('tracking URLs: replays count once, expired tokens answer 410 and count nothing', async (t) => {
  let now = Date.now();
  const s = await startTestServer(t, { server: { clock: () => now } });
  const { key: apikey, keyId } = s.makeKey({ plan: 'enterprise' });
  const lyrics = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey })).json.message.body.lyrics;
  const token = lyrics.pixel_tracking_url.split('/').pop();
  t.match(token, /^1\.l\.k_[0-9a-f]+\.[0-9a-z]+\.[\w-]{16}$/, 'the token carries its expiry');
  const expiry = parseInt(token.split('.')[3], 36) * 1000;
  t.ok(Math.abs(expiry - (now + 7 * DAY)) <= 1000, 'which is 7 days away by default');

  t.test('300 replays of one pixel URL count once', async (t) => {
    const head = await fetch(lyrics.pixel_tracking_url, { method: 'HEAD' });
    t.equal(head.status, 200, 'HEAD answers like GET');
    t.equal(head.headers.get('x-refrain-tracking'), null, 'and counts nothing');
    t.same(s.server.hits.count(keyId, 1), {});
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < 300; i++) {
      const r = await fetch(lyrics.pixel_tracking_url);
      const outcome = `${r.status} ${r.headers.get('x-refrain-tracking')} ${r.headers.get('content-type')}`;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      await r.arrayBuffer();
    }
    t.same(outcomes, { '200 counted image/gif': 1, '200 repeat image/gif': 299 }, 'the pixel is always served; one hit counted');
    for (const url of [lyrics.script_tracking_url, lyrics.html_tracking_url]) {
      const r = await fetch(url);
      t.equal(r.status, 200);
      t.equal(r.headers.get('x-refrain-tracking'), 'repeat', 'another kind of the same token is the same view');
    }
    t.same(s.server.hits.count(keyId, 1), { lyrics: 1 });
    now += 3600_000 + 1000;
    t.equal((await fetch(lyrics.pixel_tracking_url)).headers.get('x-refrain-tracking'), 'counted', 'after the replay window it counts again');
    t.same(s.server.hits.count(keyId, 1), { lyrics: 2 });
  });

  t.test('an expired token answers 410 and counts nothing', async (t) => {
    now = expiry + 1000;
    const before = s.server.hits.count(keyId, 1);
    for (const url of [lyrics.pixel_tracking_url, lyrics.script_tracking_url, lyrics.html_tracking_url]) {
      const r = await fetch(url);
      t.equal(r.status, 410);
      t.match(await r.text(), /^tracking token expired at \d{4}-\d\d-\d\dT.*: not counted \(tracking URLs last 7 days/);
      t.equal(r.headers.get('x-refrain-tracking'), null);
    }
    t.same(s.server.hits.count(keyId, 1), before, 'nothing counted');
    const fresh = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey })).json.message.body.lyrics;
    t.equal((await fetch(fresh.pixel_tracking_url)).status, 200, 'a fresh answer gives a live token');
    const stretched = lyrics.pixel_tracking_url.replace(/\.([0-9a-z]+)\.([\w-]+)$/, `.${(Math.floor(now / 1000) + 3600).toString(36)}.$2`);
    t.equal((await fetch(stretched)).status, 404, 'an expiry cannot be moved: the MAC covers it');
  });

  t.test('tokens made before expiries existed last one TTL from the first start that gives expiring ones', async (t) => {
    const secret = readFileSync(path.join(s.data, 'secrets', 'tracking.key'));
    const payload = `${(2).toString(36)}.l.${keyId}`;
    const legacy = `${s.url}/t1.0/img/${payload}.${createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 16)}`;
    const since = s.server.hits.expiringSince(0);
    t.ok(since <= Date.now() && since > Date.now() - 3600_000, 'the first start was recorded, once');
    now = since + 7 * DAY - 1000;
    const live = await fetch(legacy);
    t.equal(live.status, 200);
    t.equal(live.headers.get('x-refrain-tracking'), 'counted');
    t.equal((await fetch(legacy)).headers.get('x-refrain-tracking'), 'repeat', 'and replays count once');
    now = since + 7 * DAY + 1000;
    t.equal((await fetch(legacy)).status, 410, 'then it expires');
    t.same(s.server.hits.count(keyId, 2), { lyrics: 1 });
  });
});

t.test('--tracking-token-ttl and --tracking-replay-window', async (t) => {
  const { config } = parseCommand('serve', ['--tracking-token-ttl', '1h', '--tracking-replay-window', '0', '--tracking-dedupe-entries', '5'], {});
  t.match(config, { trackingTokenTtl: 3600, trackingReplayWindow: 0, trackingDedupeEntries: 5 });
  t.match(parseCommand('serve', [], {}).config, { trackingTokenTtl: 7 * 86_400, trackingReplayWindow: 3600, trackingDedupeEntries: 200_000 }, 'defaults');
  let now = Date.parse('2026-01-01T00:00:00Z');
  const links = new Links('http://x', Buffer.from('secret'), { ttlSeconds: config.trackingTokenTtl, legacySince: now, clock: () => now });
  const token = links.tracking('k_1', 1, 'lyrics').pixel_tracking_url.split('/').pop()!;
  const hit = links.verify(token)!;
  t.equal(hit.expires, now + 3600_000);
  t.equal(links.ttlText(), '1 hour');
  t.ok(links.live(hit));
  now += 3600_000;
  t.notOk(links.live(hit), 'expired one TTL later');
  const noWindow = new ReplayWindow({ windowMs: config.trackingReplayWindow * 1000, maxEntries: config.trackingDedupeEntries }, () => now);
  t.ok(noWindow.first('a', token) && noWindow.first('a', token), 'window 0: every hit counts');
});

t.test('the dedupe table is bounded, and forgets pairs as their window passes', async (t) => {
  let now = 0;
  const w = new ReplayWindow({ windowMs: 1000, maxEntries: 1000 }, () => now);
  let counted = 0;
  for (let i = 0; i < 50_000; i++) if (w.first(`10.0.${i >> 8 & 255}.${i & 255}`, `token${i}`)) counted++;
  t.equal(counted, 50_000, 'distinct pairs all count');
  t.equal(w.size, 1000, 'at most maxEntries remembered');
  t.notOk(w.first('10.0.195.79', 'token49999'), 'the newest is remembered');
  t.ok(w.first('10.0.0.0', 'token0'), 'the oldest was dropped first');
  now = 1001;
  t.ok(w.first('192.0.2.1', 'token'), 'a new pair after the window');
  t.equal(w.size, 1, 'expired pairs are purged');
  t.ok(w.first('192.0.2.2', 'token'), 'another address is another client');
  t.notOk(w.first('192.0.2.1', 'token'), 'a repeat within the window');
  const off = new ReplayWindow({ windowMs: 1000, maxEntries: 0 });
  t.ok(off.first('a', 'b') && off.first('a', 'b'), '0 entries turns deduplication off');
  t.equal(off.size, 0);
});
