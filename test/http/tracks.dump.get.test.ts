/**
 * tracks.dump.get and the feed downloads (spec, "GET /ws/1.1/tracks.dump.get"; docs/api.md):
 * enterprise keys and tokens with feeds:read only; the listing starts at the latest full feed and
 * runs through every incremental one after it; download URLs are signed and expire (403), pruned
 * feeds are 404; a download is the feed file byte for byte with its SHA-256 as ETag, HEAD included,
 * and a slow reader gets the whole file (backpressure).
 */
import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { pruneFeeds } from '../../src/feeds/prune.js';
import { feedFileName, feedsDir, type FeedMeta } from '../../src/feeds/store.js';
import { applyRecords } from '../helpers/apply.js';
import type { Scope } from '../../src/oauth/scopes.js';
import type { Plan } from '../../src/auth/keys.js';

const DAY1 = Date.parse('2026-11-22T03:00:00Z');
const HOUR = 3_600_000;

interface Entry {
  id: number;
  created: string;
  full: boolean;
  download_url: string;
}

async function list(s: TestServer, key = s.keys.enterprise): Promise<Entry[]> {
  const reply = await s.get('/ws/1.1/tracks.dump.get', { apikey: key });
  if (reply.status !== 200) throw new Error(`tracks.dump.get answered ${reply.status}: ${reply.text}`);
  return reply.json.message.body as Entry[];
}

/** A catalog change on a running server (as an import in another process would make). */
function change(s: TestServer, records: object[]): void {
  applyRecords(s.server.catalog, records);
}

const track = (id: number) => ({ type: 'track', track_id: id, track_name: `Song ${id}`, artist_id: 100, artist_name: 'The Fixtures', lyrics: { lyrics_body: `words ${id}` } });

async function token(s: TestServer, plan: Plan, scopes: Scope[]): Promise<string> {
  const { record } = s.server.oauth.clients.create({
    name: `feeds ${plan}`, redirectUris: ['https://partner.example/cb'], grantTypes: ['client_credentials'], scopes, plan,
  });
  return (await s.server.oauth.tokens.issueClientCredentials(record, scopes)).access_token;
}

t.test('tracks.dump.get', async (t) => {
  let now = DAY1;
  const s = await startTestServer(t, { flags: ['--no-feeds', '--feed-url-ttl', '10m'], server: { clock: () => now } });
  const feeds = s.server.feeds.schedule;

  t.test('who may list feeds', async (t) => {
    for (const plan of ['free', 'basic'] as const) {
      const reply = await s.get('/ws/1.1/tracks.dump.get', { apikey: s.keys[plan] });
      t.equal(reply.status, 403, `${plan} key`);
      t.equal(reply.json.message.header.hint, `Forbidden: tracks.dump.get needs the enterprise plan (this caller has the ${plan} plan)`);
      t.same(reply.json.message.body, []);
    }
    const bearer = (tok: string) => s.get('/ws/1.1/tracks.dump.get', {}, { headers: { authorization: `Bearer ${tok}` } });
    const noScope = await bearer(await token(s, 'enterprise', ['catalog:read']));
    t.equal(noScope.status, 403, 'an enterprise token without feeds:read');
    t.match(noScope.json.message.header.hint, /lacks the feeds:read scope/);
    t.match(noScope.headers.get('www-authenticate'), /insufficient_scope/);
    t.equal((await bearer(await token(s, 'basic', ['feeds:read']))).status, 403, 'a basic client’s token, even with feeds:read');
    const ok = await bearer(await token(s, 'enterprise', ['feeds:read']));
    t.equal(ok.status, 200, 'an enterprise token with feeds:read');
    t.same(ok.json.message.body, [], 'no feed built yet');
    t.equal(ok.json.message.header.available, 0);
  });

  t.test('the listing: the latest full feed, then every incremental one after it', async (t) => {
    const full1 = await feeds.build('full');
    t.match(full1, { id: 1, full: true, created: '2026-11-22T03:00:00Z' });
    let listing = await list(s);
    t.same(listing.map((e) => Object.keys(e)), [['id', 'created', 'full', 'download_url']], "the spec's Feed entry fields");
    t.match(listing, [{ id: 1, created: '2026-11-22T03:00:00Z', full: true, download_url: /^http:\/\/localhost:\d+\/feeds\/feed-000001-full\.jsonl\.gz\?expires=\d+&signature=[\w-]{43}$/ }]);
    t.equal(await feeds.build('incremental'), undefined, 'nothing changed: no incremental feed');

    now += HOUR;
    change(s, [track(501)]);
    t.match(await feeds.build('incremental'), { id: 2, full: false, created: '2026-11-22T04:00:00Z' });
    now += HOUR;
    change(s, [track(502), { type: 'delete', track_id: 501 }]);
    await feeds.build('incremental');
    listing = await list(s);
    t.same(listing.map((e) => [e.id, e.full, e.created]), [[1, true, '2026-11-22T03:00:00Z'], [2, false, '2026-11-22T04:00:00Z'], [3, false, '2026-11-22T05:00:00Z']]);

    now = DAY1 + 24 * HOUR;
    change(s, [track(503)]);
    await feeds.build('full');
    listing = await list(s);
    t.same(listing.map((e) => [e.id, e.full, e.created]), [[4, true, '2026-11-23T03:00:00Z']], 'on the day of a full feed: only that feed');
    t.equal(await feeds.build('full'), undefined, 'a full feed equal to the latest one is not built again');
    now += HOUR;
    change(s, [track(504)]);
    await feeds.build('incremental');
    t.same((await list(s)).map((e) => [e.id, e.full]), [[4, true], [5, false]], 'after it: the full feed and the incremental ones since');
  });

  t.test('downloads', async (t) => {
    const [full, incremental] = await list(s);
    const file = path.join(feedsDir(s.data), new URL(full.download_url).pathname.split('/').pop()!);
    const onDisk = readFileSync(file);
    const res = await fetch(full.download_url);
    t.equal(res.status, 200);
    const body = Buffer.from(await res.arrayBuffer());
    t.ok(body.equals(onDisk), 'the file, byte for byte');
    const sha = createHash('sha256').update(body).digest();
    t.equal(res.headers.get('etag'), `"${sha.toString('hex')}"`);
    t.equal(res.headers.get('repr-digest'), `sha-256=:${sha.toString('base64')}:`);
    t.equal(res.headers.get('content-length'), String(onDisk.length));
    t.equal(res.headers.get('content-type'), 'application/gzip');
    const lines = gunzipSync(body).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; track_id?: number });
    t.same(lines.filter((r) => r.type === 'track').map((r) => r.track_id), [...s.server.catalog.trackIds()].filter((id) => id !== 504), 'every track of the catalog when it was built (504 came later)');

    const head = await fetch(incremental.download_url, { method: 'HEAD' });
    t.equal(head.status, 200, 'HEAD');
    const incrementalFile = readFileSync(path.join(feedsDir(s.data), new URL(incremental.download_url).pathname.split('/').pop()!));
    t.equal(head.headers.get('content-length'), String(incrementalFile.length));
    t.equal(head.headers.get('etag'), `"${createHash('sha256').update(incrementalFile).digest('hex')}"`);
    t.equal((await head.arrayBuffer()).byteLength, 0);

    const cached = await fetch(full.download_url, { headers: { 'if-none-match': `"${sha.toString('hex')}"` } });
    t.equal(cached.status, 304, 'If-None-Match with the ETag');
  });

  t.test('signatures: tampering, expiry, pruned feeds', async (t) => {
    const [full, incremental] = await list(s);
    const url = new URL(full.download_url);
    const status = async (u: URL | string, method = 'GET') => {
      const res = await fetch(u, { method });
      await res.arrayBuffer();
      return res.status;
    };
    const other = new URL(url);
    other.pathname = new URL(incremental.download_url).pathname;
    t.equal(await status(other), 403, "another file's path with this signature");
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    t.equal(await status(later), 403, 'a later expiry');
    const forged = new URL(url);
    const sig = url.searchParams.get('signature')!;
    forged.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    t.equal(await status(forged), 403, 'a changed signature');
    const last = new URL(url);
    last.searchParams.set('signature', sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A'));
    t.equal(await status(last), 403, 'a changed last character');
    const bare = new URL(url);
    bare.search = '';
    t.equal(await status(bare), 403, 'no signature');
    t.equal(await status(forged, 'HEAD'), 403, 'HEAD is checked too');

    const res = await fetch(url);
    await res.arrayBuffer();
    t.equal(res.status, 200, 'the listed URL');
    const saved = now;
    now += 10 * 60_000;
    const expired = await fetch(url);
    t.equal(expired.status, 403, 'expired after --feed-url-ttl');
    t.match(await expired.text(), /expired/);
    now = saved;

    // Pruned: the superseded full feed of day 1, past a retention of one day.
    const [old] = s.server.feeds.store.all();
    const pruned = await pruneFeeds(s.data, s.server.feeds.store, now + 30 * 24 * HOUR, 86_400);
    t.same(pruned.map((f) => f.id), [1, 2, 3], 'the feeds before the latest full one');
    t.equal(await status(s.server.feeds.directory.urlFor(old.file, now)), 404, 'a pruned feed, with a valid signature');
    t.same((await list(s)).map((e) => e.id), [4, 5], 'the listing keeps the latest full feed and those after it');
  });
});

t.test('a slow reader gets the whole file (backpressure)', async (t) => {
  const s = await startTestServer(t, { flags: ['--no-feeds'] });
  // A file bigger than the kernel's socket buffers (up to 4 MiB to send, more to receive), listed as
  // a feed: the route must stop at a full socket and resume on onWritable.
  const content = randomBytes(24 * 2 ** 20);
  const meta: FeedMeta = {
    id: 1, created: '2026-11-22T03:00:00Z', full: true, fromSeq: 0, toSeq: 0, file: feedFileName(1, true),
    bytes: content.length, sha256: createHash('sha256').update(content).digest('hex'), records: 0,
  };
  mkdirSync(feedsDir(s.data), { recursive: true });
  writeFileSync(path.join(feedsDir(s.data), meta.file), content);
  await s.server.feeds.store.add(meta);
  const [entry] = await list(s);
  const body = await new Promise<Buffer>((resolve, reject) => {
    http.get(entry.download_url.replace('localhost', '127.0.0.1'), (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve(Buffer.concat(parts)));
      res.on('error', reject);
      // Stop reading for a while: the server's socket fills up.
      res.pause();
      void sleep(300).then(() => res.resume());
    }).on('error', reject);
  });
  t.equal(body.length, meta.bytes, 'every byte');
  t.equal(createHash('sha256').update(body).digest('hex'), meta.sha256, 'in order');
});
