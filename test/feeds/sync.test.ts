/**
 * A primary and a replica side by side: `syncOnce` (refrain sync) applies the primary's latest full
 * feed and the incremental ones after it, so imports, updates and deletes on the primary show up on
 * the replica, which then answers like its primary; a newer full feed replaces the replica's
 * catalog; a download cut off or a corrupted file fails its integrity check with nothing applied,
 * and the next sync resumes at the first feed not applied.
 */
import t, { type Test } from 'tap';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { catalogState } from '../helpers/catalog-state.js';
import { applyRecords } from '../helpers/apply.js';
import { LYRICS, TRACKS } from '../helpers/fixtures.js';
import { Catalog } from '../../src/catalog/store.js';
import type { Primary } from '../../src/feeds/fetch.js';
import { readState, syncOnce } from '../../src/feeds/sync.js';
import { feedsDir } from '../../src/feeds/store.js';
import { buildIndex } from '../../src/index/service/build.js';

/** A pass-through proxy in front of the primary that can cut chosen downloads short. */
async function proxy(t: Test, target: () => number) {
  const control: { cut?: (url: string) => number | undefined } = {};
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: '127.0.0.1', port: target(), path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      const limit = control.cut?.(req.url!);
      if (limit === undefined) return void up.pipe(res);
      let sent = 0;
      up.on('data', (chunk: Buffer) => {
        if (sent >= limit) return;
        const part = chunk.subarray(0, limit - sent);
        sent += part.length;
        const last = sent >= limit;
        res.write(part, () => {
          if (last) res.socket?.destroy(); // the connection drops mid-body
        });
        if (last) up.destroy();
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, control };
}

/** An answer as a replica must repeat it: without timings, tracking URLs (they name the key) and the host. */
async function answer(s: TestServer, method: string, params: Record<string, string | number>): Promise<unknown> {
  const reply = await s.get(`/ws/1.1/${method}`, { apikey: s.keys.enterprise, ...params });
  const text = reply.text.replaceAll(s.server.url, 'BASE');
  return { status: reply.status, body: JSON.parse(text, (k, v) => (k.endsWith('_tracking_url') || k === 'execute_time' ? undefined : v)) };
}

const WORK = {
  identifier: 'FS-0001', title: 'Full Song', isrc: ['GB-AAA-20-00001'],
  owners: {
    publisher: [{ name: 'Fixture Songs Ltd', controlled: 'Y', role: 'E', mech_ownership_share: 7500, perf_ownership_share: 5000, sync_ownership_share: 7500 }],
    writer: [{ name: 'Ada Quillfeather', role: 'CA', controlled: 'Y', ipi: '00123456789', mech_ownership_share: 2500, perf_ownership_share: 5000, sync_ownership_share: 2500 }],
  },
  collection: { validity_begin: '2020-01-01', territories: [{ code: 'XW', mech_share: 5000, perf_share: 5000, sync_share: 5000 }] },
};

const LOOKUPS: [string, Record<string, string | number>][] = [
  ['track.get', { track_id: 1 }], ['track.get', { track_id: 3 }], ['track.get', { track_id: 7001 }], ['track.get', { commontrack_id: 10 }],
  ['track.lyrics.get', { track_id: 1 }], ['track.lyrics.get', { track_isrc: 'GBAAA2000003', country: 'IT' }], ['track.lyrics.get', { track_id: 6 }],
  ['track.subtitle.get', { track_id: 1 }], ['track.richsync.get', { track_id: 1 }], ['track.snippet.get', { track_id: 1 }],
  ['track.lyrics.analysis.get', { track_id: 1 }], ['artist.get', { artist_id: 100 }], ['artist.get', { artist_id: 200 }], ['artist.get', { artist_id: 7100 }],
  ['album.get', { album_id: 1000 }], ['album.get', { album_id: 7200 }], ['artist.albums.get', { artist_id: 100 }], ['album.tracks.get', { album_id: 1000 }],
  ['chart.tracks.get', { page_size: 20 }], ['chart.artists.get', {}],
];

async function sameAnswers(t: Test, primary: TestServer, replica: TestServer, calls = LOOKUPS): Promise<void> {
  replica.server.refreshCatalog();
  primary.server.refreshCatalog();
  for (const [method, params] of calls) {
    t.same(await answer(replica, method, params), await answer(primary, method, params), `${method} ${JSON.stringify(params)}`);
  }
}

/** A catalog change on a running server (as an import in another process would make). */
function change(s: TestServer, records: object[]): void {
  applyRecords(s.server.catalog, records);
}

const state = (dir: string) => {
  const c = Catalog.open(dir);
  try {
    return catalogState(c);
  } finally {
    void c.close();
  }
};

t.test('a replica follows its primary through feeds', async (t) => {
  let primaryPort = 0;
  const front = await proxy(t, () => primaryPort);
  const primary = await startTestServer(t, { flags: ['--no-feeds', '--public-url', front.url] });
  primaryPort = primary.server.port;
  const replica = await startTestServer(t, { records: [] });
  const source: Primary = { base: front.url, apikey: primary.keys.enterprise };
  const feeds = primary.server.feeds.schedule;

  t.test('the primary has no feeds yet: nothing to do', async (t) => {
    t.same(await syncOnce(replica.data, source), { source: front.url, applied: [], full: undefined, last: undefined });
  });

  t.test('keys that may not list feeds are refused', async (t) => {
    await t.rejects(syncOnce(replica.data, { base: front.url, apikey: primary.keys.basic }), { message: /refused tracks\.dump\.get: 403 Forbidden/ });
  });

  t.test('the first sync applies the full feed', async (t) => {
    await feeds.build('full');
    const { record } = primary.server.oauth.clients.create({
      name: 'replica', redirectUris: ['https://replica.example/cb'], grantTypes: ['client_credentials'], scopes: ['feeds:read'], plan: 'enterprise',
    });
    const token = (await primary.server.oauth.tokens.issueClientCredentials(record, ['feeds:read'])).access_token;
    const report = await syncOnce(replica.data, { base: front.url, bearer: token });
    t.match(report.applied, [{ id: 1, full: true, imported: 10, removed: 0 }], 'with a Bearer token');
    t.same(state(replica.data), catalogState(primary.server.catalog), 'the same records, content and indexes');
    await sameAnswers(t, primary, replica);
    t.same((await syncOnce(replica.data, source)).applied, [], 'a second sync finds nothing new');
  });

  t.test('imports, updates and deletes on the primary reach the replica', async (t) => {
    change(primary, [
      { type: 'track', track_id: 7001, track_name: 'New One', artist_id: 7100, artist_name: 'New Artist', album_id: 7200, album_name: 'New Album', lyrics: { lyrics_body: 'fresh words here' } },
      { ...TRACKS[0], track_name: 'Full Song (remastered)', track_rating: 99 },
    ]);
    // A work linked to track 1's ISRC lends it a writer (work.post logs the track as changed).
    const posted = await fetch(`${primary.url}/ws/1.1/work.post?apikey=${primary.keys.enterprise}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: WORK }),
    });
    t.equal(posted.status, 200, 'work.post');
    await feeds.build('incremental');
    change(primary, [{ type: 'delete', track_id: 3 }, { type: 'delete', artist_id: 200 }]);
    await feeds.build('incremental');
    const report = await syncOnce(replica.data, source);
    t.same(report.applied.map((f) => [f.id, f.full]), [[2, false], [3, false]]);
    t.match(report.applied[1], { deleted: 3 }, 'the deletes (track 6 with its artist)');
    t.same(state(replica.data), catalogState(primary.server.catalog));
    await sameAnswers(t, primary, replica);
    t.equal((await replica.get('/ws/1.1/track.get', { apikey: replica.keys.basic, track_id: 3 })).status, 404, 'the deleted track is gone');
    const one = await replica.get('/ws/1.1/track.get', { apikey: replica.keys.basic, track_id: 1 });
    t.match(JSON.stringify(one.json.message.body.track.writer_list), /Ada Quillfeather/, "the work's writer reached the replica with the track");
  });

  t.test('a newer full feed replaces the catalog', async (t) => {
    // The replica misses a delete's incremental feed (the primary folds it into a full feed) and has
    // a record of its own: both must go.
    change(primary, [{ type: 'delete', track_id: 2 }]);
    change(replica, [{ type: 'track', track_id: 8888, track_name: 'Only Here', artist_id: 8800, artist_name: 'Stray' }]);
    await feeds.build('full');
    const report = await syncOnce(replica.data, source);
    t.match(report.applied, [{ id: 4, full: true, removed: 3 }], 'track 2, the stray track and its artist removed');
    t.same(state(replica.data), catalogState(primary.server.catalog));
    await sameAnswers(t, primary, replica);
  });

  t.test('an interrupted sync applies nothing broken and resumes where it stopped', async (t) => {
    change(primary, [{ type: 'track', track_id: 7002, track_name: 'Second', artist_id: 7100, artist_name: 'New Artist' }]);
    const five = (await feeds.build('incremental'))!;
    change(primary, [{ type: 'delete', track_id: 7001 }]);
    const six = (await feeds.build('incremental'))!;
    const before = state(replica.data);

    // Feed 6's download breaks off halfway: feed 5 is applied and recorded, 6 is not.
    front.control.cut = (url) => (url.includes(six.file) ? Math.floor(six.bytes / 2) : undefined);
    await t.rejects(syncOnce(replica.data, source), { code: 'integrity', message: /feed 6: the download broke off after \d+ bytes/ });
    const replicaCatalog = Catalog.open(replica.data);
    t.same(readState(replicaCatalog, front.url).applied, [5], 'feed 5 was applied and recorded');
    t.ok(replicaCatalog.getTrack(7002), 'feed 5 is in');
    t.ok(replicaCatalog.getTrack(7001), 'nothing of feed 6');
    await replicaCatalog.close();
    front.control.cut = undefined;

    // The file on the primary's disk is damaged: its digest no longer matches the announced one.
    const file = path.join(feedsDir(primary.data), six.file);
    const good = readFileSync(file);
    const bad = Buffer.from(good);
    bad[bad.length >> 1] ^= 0xff;
    writeFileSync(file, bad);
    await t.rejects(syncOnce(replica.data, source), { code: 'integrity', message: /feed 6: SHA-256 [0-9a-f]{64} does not match/ });
    writeFileSync(file, good);

    const resumed = await syncOnce(replica.data, source);
    t.same(resumed.applied.map((f) => f.id), [6], 'only feed 6: feed 5 is not applied twice');
    t.notSame(state(replica.data), before);
    t.same(state(replica.data), catalogState(primary.server.catalog), 'level with the primary');
    await sameAnswers(t, primary, replica, [...LOOKUPS, ['track.get', { track_id: 7002 }]]);
    t.equal(five.id, 5);
  });

  t.test('search, matching and screening answer alike once the replica indexed', async (t) => {
    // What refrain sync does after applying feeds; each server then swaps the generation in.
    for (const s of [primary, replica]) {
      const { generation } = await buildIndex(s.data);
      while (s.server.index.generation < generation) await once(s.server.index, 'generation');
    }
    await sameAnswers(t, primary, replica, [
      ['track.search', { q_track: 'song' }], ['track.search', { q_lyrics: 'chorus' }], ['artist.search', { q_artist: 'fixtures' }],
      ['matcher.track.get', { q_track: 'Full Song (remastered)', q_artist: 'The Fixtures' }], ['matcher.lyrics.get', { q_track: 'Full Song (remastered)', q_artist: 'The Fixtures' }],
    ]);
    const screen = async (s: TestServer) => {
      const res = await fetch(`${s.url}/ws/1.1/track.lyrics.fingerprint.post?apikey=${s.keys.enterprise}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: LYRICS } }),
      });
      return (await res.text()).replace(/"execute_time":[\d.e-]+/, '').replaceAll(s.server.url, 'BASE').replace(/"\w+_tracking_url":"[^"]*",?/g, '');
    };
    t.equal(await screen(replica), await screen(primary), 'track.lyrics.fingerprint.post');
  });
});
