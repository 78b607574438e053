import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { LYRICS } from '../helpers/fixtures.js';
import { Lyrics, Richsync, Snippet, Subtitle, Track } from '../../src/api/resources.js';

t.test('track methods', async (t) => {
  const s = await startTestServer(t);
  const apikey = s.keys.enterprise;

  t.test('track.get by every identifier form', async (t) => {
    const forms: [Record<string, string | number>, number][] = [
      [{ track_id: 1 }, 1],
      [{ commontrack_id: 10 }, 1], // the more popular version
      [{ track_isrc: 'gbaaa2000002' }, 2],
      [{ track_isrc: 'GB-AAA-20-00003' }, 3],
      [{ track_spotify_id: '4uLU6hMCjMI75M1A2tKUQC' }, 1],
      [{ track_itunes_id: '123456' }, 1],
    ];
    for (const [params, id] of forms) {
      const r = await s.get('/ws/1.1/track.get', { ...params, apikey });
      t.equal(r.status, 200, JSON.stringify(params));
      t.equal(r.json.message.body.track.track_id, id);
    }
    const track = (await s.get('/ws/1.1/track.get', { track_id: 1, apikey })).json.message.body.track;
    t.ok(Track.safeParse(track).success, JSON.stringify(Track.safeParse(track).error?.issues?.[0]));
    t.same(track.commontrack_isrcs, [['GBAAA2000001', 'GBAAA2000002']]);
  });

  t.test('track.get errors: none given, malformed, unknown', async (t) => {
    const none = await s.get('/ws/1.1/track.get', { apikey });
    t.equal(none.status, 400);
    t.match(none.json.message.header.hint, /one of track_id, commontrack_id, track_isrc/);
    for (const [name, value] of [['track_id', 'abc'], ['track_id', '-3'], ['commontrack_id', '1.5'], ['track_isrc', 'no spaces!']]) {
      const r = await s.get('/ws/1.1/track.get', { [name]: value, apikey });
      t.equal(r.status, 400, `${name}=${value}`);
      t.match(r.json.message.header.hint, new RegExp(`^${name} `));
    }
    for (const params of [{ track_id: 999 }, { commontrack_id: 999 }, { track_isrc: 'ZZZZZ9900000' }, { track_spotify_id: 'nope' }, { track_itunes_id: '1' }]) {
      const r = await s.get('/ws/1.1/track.get', { ...params, apikey });
      t.equal(r.status, 404, JSON.stringify(params));
      t.same(r.json.message.body, []);
    }
  });

  t.test('track.lyrics.get: full, free 30%, restricted', async (t) => {
    const full = await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey });
    const lyrics = full.json.message.body.lyrics;
    t.ok(Lyrics.safeParse(lyrics).success);
    t.equal(lyrics.lyrics_body, LYRICS);
    t.equal(lyrics.lyrics_language_description, 'English');
    t.equal(lyrics.restricted, 0);
    t.same(lyrics.region_restriction, { allowed: ['XW'], blocked: [] });
    t.match(lyrics.pixel_tracking_url, new RegExp(`^${s.server.url}/t1.0/img/`));

    const free = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey: s.keys.free })).json.message.body.lyrics;
    t.ok(free.lyrics_body.length < LYRICS.length * 0.3 + 80);
    t.ok(free.lyrics_body.startsWith('First line of the chorus'));
    t.match(free.lyrics_body, /\*\*\*\*\*\*\* This Lyrics is NOT for Commercial use \*\*\*\*\*\*\*$/);
    t.match(free.lyrics_copyright, /NOT for Commercial use and only 30% of the lyrics are returned\.$/);
    t.match(free.lyrics_copyright, /[^.]\. This Lyrics is NOT/, 'the notice is a sentence of its own, as the public service writes it');

    const italy = s.makeKey({ plan: 'enterprise', country: 'IT' }).key;
    const blocked = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 3, apikey: italy })).json;
    t.equal(blocked.message.header.status_code, 200, 'restricted content keeps 200');
    t.equal(blocked.message.body.lyrics.restricted, 1);
    t.equal(blocked.message.body.lyrics.lyrics_body, '');
    t.equal(blocked.message.body.lyrics.lyrics_copyright, "Unfortunately we're not authorized to show these lyrics.");
    t.same(blocked.message.body.lyrics.region_restriction, { allowed: ['XW'], blocked: ['IT'] });
    const elsewhere = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 3, apikey })).json.message.body.lyrics;
    t.equal(elsewhere.restricted, 0, 'blocked only in Italy: shown to a key without a country');
    t.equal((await s.get('/ws/1.1/track.lyrics.get', { track_id: 3, apikey, country: 'it' })).json.message.body.lyrics.restricted, 1, 'country parameter');
    t.equal((await s.get('/ws/1.1/track.lyrics.get', { track_id: 3, apikey: italy, country: 'US' })).json.message.body.lyrics.restricted, 1, "the key's country wins");
    const worldwide = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 4, apikey })).json.message.body.lyrics;
    t.equal(worldwide.restricted, 1);
    t.same(worldwide.region_restriction, { allowed: [], blocked: ['XW'] });
    const onlyItaly = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 6, apikey: italy })).json.message.body.lyrics;
    t.equal(onlyItaly.restricted, 0);
    t.equal((await s.get('/ws/1.1/track.lyrics.get', { track_id: 6, apikey })).json.message.body.lyrics.restricted, 1, 'allow-listed content needs a country');
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 3, apikey: italy })).json.message.body.track.restricted, 1, 'track.restricted too');
    t.equal((await s.get('/ws/1.1/track.lyrics.get', { track_id: 5, apikey })).status, 404, 'an instrumental has no lyrics');
    t.equal((await s.get('/ws/1.1/track.lyrics.get', { commontrack_id: 10, apikey })).json.message.body.lyrics.lyrics_id, 1);
  });

  t.test('tracking URLs record hits per key and track', async (t) => {
    const lyrics = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey })).json.message.body.lyrics;
    const keyId = s.server.keys.list().find((k) => k.plan === 'enterprise' && !k.country)!.key_id;
    const pixel = await fetch(lyrics.pixel_tracking_url);
    t.equal(pixel.status, 200);
    t.equal(pixel.headers.get('content-type'), 'image/gif');
    t.equal((await fetch(lyrics.script_tracking_url)).status, 200);
    t.equal((await fetch(lyrics.html_tracking_url)).status, 200);
    // One token is one view: its pixel, script and page from the same address count once (issue 11, item 8).
    t.same(s.server.hits.count(keyId, 1), { lyrics: 1 });
    const forged = lyrics.pixel_tracking_url.replace(/\.[^.]+$/, '.AAAAAAAAAAAAAAAA');
    t.equal((await fetch(forged)).status, 404, 'a token with a bad MAC records nothing');
    await s.server.hits.flush();
    t.same(s.server.hits.count(keyId, 1), { lyrics: 1 }, 'saved to LMDB');
  });

  t.test('track.snippet.get', async (t) => {
    const r = await s.get('/ws/1.1/track.snippet.get', { track_isrc: 'GBAAA2000001', apikey });
    t.ok(Snippet.safeParse(r.json.message.body.snippet).success);
    t.equal(r.json.message.body.snippet.snippet_body, 'First line of the chorus');
    t.equal(r.json.message.body.snippet.snippet_language, 'en');
    t.equal((await s.get('/ws/1.1/track.snippet.get', { track_id: 2, apikey })).status, 404);
  });

  t.test('track.subtitle.get: formats and length filters', async (t) => {
    const lrc = await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey });
    const sub = lrc.json.message.body.subtitle;
    t.ok(Subtitle.safeParse(sub).success);
    t.equal(lrc.json.message.header.instrumental, 0);
    t.match(sub.subtitle_body, /^\[00:12\.30\] First line of the chorus\n/);
    t.equal(sub.subtitle_length, 70);
    const mxm = JSON.parse((await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey, subtitle_format: 'mxm' })).json.message.body.subtitle.subtitle_body);
    t.same(mxm[2], { text: 'Last line', time: { total: 62.05, minutes: 1, seconds: 2, hundredths: 5 } });
    const dfxp = (await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey, subtitle_format: 'DFXP' })).json.message.body.subtitle.subtitle_body;
    t.match(dfxp, /<tt xmlns="http:\/\/www.w3.org\/ns\/ttml" xml:lang="en">/);
    t.match(dfxp, /<p begin="00:00:12.30" end="00:00:15.00">First line of the chorus<\/p>/);
    t.match(dfxp, /<p begin="00:01:02.05" end="00:01:10.00">Last line<\/p>/);
    t.equal((await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey, subtitle_format: 'srt' })).status, 400);
    t.equal((await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey, f_subtitle_length: 70 })).status, 200);
    t.equal((await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey, f_subtitle_length: 72 })).status, 404);
    t.equal((await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey, f_subtitle_length: 72, f_subtitle_length_max_deviation: 2 })).status, 200);
    t.equal((await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey, f_subtitle_length: 'long' })).status, 400);
    const instrumental = await s.get('/ws/1.1/track.subtitle.get', { track_id: 5, apikey });
    t.equal(instrumental.status, 404);
    t.equal(instrumental.json.message.header.instrumental, 1);
    t.equal((await s.get('/ws/1.1/track.subtitle.get', { track_id: 1, apikey: s.keys.free })).status, 403, 'not on the free plan');
  });

  t.test('track.richsync.get and its length filters', async (t) => {
    const r = await s.get('/ws/1.1/track.richsync.get', { commontrack_id: 10, apikey: s.keys.basic });
    t.equal(r.status, 200);
    const rs = r.json.message.body.richsync;
    t.ok(Richsync.safeParse(rs).success);
    t.equal(r.json.message.header.available, 1);
    t.equal(rs.richssync_language, 'en');
    t.equal(rs.richsync_language, 'en');
    t.equal(JSON.parse(rs.richsync_body)[0].x, 'First line');
    t.equal(rs.richsync_avg_count, 2);
    t.equal((await s.get('/ws/1.1/track.richsync.get', { track_id: 1, apikey, f_richsync_length: 60, f_richsync_length_max_deviation: 5 })).status, 404);
    t.equal((await s.get('/ws/1.1/track.richsync.get', { track_id: 1, apikey, f_richsync_length: 66, f_richsync_length_max_deviation: 5 })).status, 200);
    t.equal((await s.get('/ws/1.1/track.richsync.get', { track_id: 3, apikey })).status, 404);
  });

  t.test('track.lyrics.analysis.get', async (t) => {
    const r = await s.get('/ws/1.1/track.lyrics.analysis.get', { track_id: 1, apikey });
    t.equal(r.status, 200);
    t.equal(r.json.message.body.analysis.meaning.description, 'about tests');
    t.same(r.json.message.body.analysis.moods.main_moods, ['calm']);
    t.equal((await s.get('/ws/1.1/track.lyrics.analysis.get', { track_id: 2, apikey })).status, 404);
  });

  t.test('track.lyricslens.get is gone after its sunset', async (t) => {
    const r = await s.get('/ws/1.1/track.lyricslens.get', { track_id: 1, apikey });
    t.equal(r.status, 410);
    t.match(r.json.message.header.hint, /track.lyrics.analysis.get/);
    t.equal(r.headers.get('sunset'), 'Tue, 01 Sep 2026 00:00:00 GMT');
  });

  t.test('track.lyricslens.get before the sunset (extended by the operator)', async (t) => {
    const extended = await startTestServer(t, { flags: ['--lyricslens-sunset', '2099-01-01'] });
    const r = await extended.get('/ws/1.1/track.lyricslens.get', { track_id: 1, apikey: extended.keys.basic });
    t.equal(r.status, 200);
    t.equal(r.json.message.body.lens.meaning.description, 'about tests');
    t.equal(r.headers.get('sunset'), 'Thu, 01 Jan 2099 00:00:00 GMT');
    t.match(r.headers.get('deprecation'), /^@\d+$/);
    t.match(r.headers.get('link'), /track.lyrics.analysis.get/);
  });

  t.test('share and edit pages', async (t) => {
    const track = (await s.get('/ws/1.1/track.get', { track_id: 1, apikey })).json.message.body.track;
    const share = await fetch(track.track_share_url);
    t.equal(share.status, 200);
    t.match(await share.text(), /<h1>Full Song<\/h1>/);
    const edit = await (await fetch(track.track_edit_url)).text();
    t.match(edit, /refrain import/);
    t.match(edit, /&quot;track_id&quot;:1,/);

    const artist = (await s.get('/ws/1.1/artist.get', { artist_id: 100, apikey })).json.message.body.artist;
    t.match(artist.artist_share_url, /\/artist\/100\/The-Fixtures$/);
    t.equal(artist.artist_edit_url, `${artist.artist_share_url}/edit`);
    const page = await (await fetch(artist.artist_share_url)).text();
    t.match(page, /<h1>The Fixtures<\/h1>/);
    t.match(page, /<li><a href="[^"]*\/lyrics\/1\/The-Fixtures\/Full-Song">Full Song<\/a><\/li>/, 'its most popular track first, linking to its page');
    t.match(await (await fetch(artist.artist_edit_url)).text(), /&quot;artist_id&quot;:100,/);
    const missing = await fetch(`${s.url}/artist/99999/nobody`);
    t.equal(missing.status, 404);
    t.equal((await fetch(`${s.url}/artist/0x1/x`)).status, 404, 'digits only');
  });
});

t.test('a malformed country parameter is a 400 on any method', async (t) => {
  const s = await startTestServer(t);
  const r = await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey: s.keys.basic, country: 'Italy' });
  t.equal(r.status, 400);
  t.match(r.json.message.header.hint, /^country must be an ISO 3166-1 alpha-2/);
});
