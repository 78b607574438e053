import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('the envelope, status codes, formats and headers', async (t) => {
  const s = await startTestServer(t);
  const key = s.keys.enterprise;

  t.test('success: status_code, execute_time and the x-refrain headers', async (t) => {
    const r = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key });
    t.equal(r.status, 200);
    t.equal(r.json.message.header.status_code, 200);
    t.type(r.json.message.header.execute_time, 'number');
    t.ok(r.json.message.header.execute_time < 1);
    t.equal(r.headers.get('x-refrain-header-status'), '200');
    t.match(r.headers.get('x-refrain-header-execute-time'), /^\d+\.\d{6}$/);
    t.equal(r.headers.get('x-refrain-header-hint'), null);
    t.match(r.headers.get('content-type'), /^application\/json/);
    t.equal(r.headers.get('access-control-allow-origin'), null, 'no CORS headers without an Origin');
    const cors = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key }, { headers: { origin: 'https://app.example' } });
    t.equal(cors.headers.get('access-control-allow-origin'), '*');
    t.match(cors.headers.get('access-control-expose-headers'), /x-refrain-header-hint/);
  });

  t.test('401 without, with a wrong, or with a revoked key', async (t) => {
    for (const params of [{ track_id: 1 }, { track_id: 1, apikey: '' }, { track_id: 1, apikey: 'f'.repeat(32) }]) {
      const r = await s.get('/ws/1.1/track.get', params);
      t.equal(r.status, 401);
      t.same(r.json.message.body, []);
      t.equal(r.json.message.header.status_code, 401);
      t.equal(r.headers.get('x-refrain-header-status'), '401');
      t.match(r.json.message.header.hint, /apikey/);
      t.equal(r.headers.get('x-refrain-header-hint'), r.json.message.header.hint);
    }
    const { key: doomed, keyId } = s.makeKey({ plan: 'basic' });
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey: doomed })).status, 200);
    s.server.keys.revoke(keyId);
    s.server.refreshKeys();
    const r = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: doomed });
    t.equal(r.status, 401);
    t.match(r.json.message.header.hint, /invalid or revoked/);
    const bearer = await s.get('/ws/1.1/track.get', { track_id: 1 }, { headers: { authorization: 'Bearer abc' } });
    t.equal(bearer.status, 401);
    t.match(bearer.headers.get('www-authenticate'), /^Bearer/);
  });

  t.test('405 for unknown methods and the wrong verb', async (t) => {
    const r = await s.get('/ws/1.1/track.nonsense.get', { apikey: key });
    t.equal(r.status, 405);
    t.match(r.json.message.header.hint, /unknown API method track.nonsense.get/);
    const post = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key }, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    t.equal(post.status, 405);
    t.equal(post.headers.get('allow'), 'GET');
  });

  t.test('HEAD answers the headers and length of the GET, with no body', async (t) => {
    const get = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key });
    const head = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key }, { method: 'HEAD' });
    t.equal(head.status, 200);
    t.equal(head.text, '');
    t.equal(head.headers.get('x-refrain-header-status'), '200');
    const length = Number(head.headers.get('content-length'));
    t.ok(Math.abs(length - Buffer.byteLength(get.text)) <= 4, 'Content-Length of the GET (execute_time digits aside)');
    const after = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key });
    t.equal(after.json.message.body.track.track_id, 1, 'the connection stays in sync after a HEAD');
  });

  t.test("by default /ws/1.1/ answers HTTP 200 with the status in the envelope, as the public API does", async (t) => {
    const cases: [Record<string, string | number>, number][] = [
      [{ track_id: 999, apikey: key }, 404],
      [{ track_id: 'x', apikey: key }, 400],
      [{ track_id: 1, apikey: 'f'.repeat(32) }, 401],
      [{ track_id: 1 }, 401],
    ];
    for (const [params, status] of cases) {
      const res = await fetch(`${s.url}/ws/1.1/track.get?${new URLSearchParams(params as Record<string, string>)}`);
      const body = (await res.json()) as { message: { header: { status_code: number } } };
      t.equal(res.status, 200, `HTTP 200 for ${status}`);
      t.equal(body.message.header.status_code, status);
      t.equal(res.headers.get('x-refrain-header-status'), String(status));
      t.ok(res.headers.get('x-refrain-header-hint'), 'the hint is in a header too');
    }
    const unknown = await fetch(`${s.url}/ws/1.1/track.dance?apikey=${key}`);
    t.equal(unknown.status, 200);
    t.equal(((await unknown.json()) as { message: { header: { status_code: number } } }).message.header.status_code, 405);
  });

  t.test('--http-status mirror repeats the envelope status in HTTP', async (t) => {
    const mirror = await startTestServer(t, { flags: ['--http-status', 'mirror'] });
    const r = await fetch(`${mirror.url}/ws/1.1/track.get?track_id=999&apikey=${mirror.keys.basic}`);
    t.equal(r.status, 404);
    t.equal(((await r.json()) as { message: { header: { status_code: number } } }).message.header.status_code, 404);
    t.equal(r.headers.get('x-refrain-header-status'), '404');
    const ok = await mirror.get('/ws/1.1/track.get', { track_id: 1, apikey: mirror.keys.basic });
    t.equal(ok.httpStatus, 200);
    const bad = await mirror.get('/ws/1.1/track.get', { track_id: 'x', apikey: mirror.keys.basic, format: 'xml' });
    t.equal(bad.httpStatus, 400, 'in every format');
  });

  t.test('answers whose HTTP status carries behaviour keep it in both modes', async (t) => {
    const limited = s.makeKey({ plan: 'basic', rate: 1 });
    await s.get('/ws/1.1/track.get', { track_id: 1, apikey: limited.key });
    const res = await fetch(`${s.url}/ws/1.1/track.get?track_id=1&apikey=${limited.key}`);
    t.equal(res.status, 429, 'a rate limit is HTTP 429: retrying clients and proxies read Retry-After only there');
    t.ok(res.headers.get('retry-after'));
    t.equal(((await res.json()) as { message: { header: { status_code: number } } }).message.header.status_code, 429);
    const token = await fetch(`${s.url}/ws/1.1/track.get?track_id=1`, { headers: { authorization: 'Bearer not-a-token' } });
    t.equal(token.status, 401, 'a refused Bearer token is HTTP 401 with its challenge: OAuth clients refresh on it');
    t.match(token.headers.get('www-authenticate'), /error="invalid_token"/);
    const big = await fetch(`${s.url}/ws/1.1/work.post?apikey=${key}`, { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) }).catch(() => undefined);
    if (big) t.equal(big.status, 413, 'a body over the cap is HTTP 413, answered before the method is known');
  });

  t.test('format=xml and format=jsonp', async (t) => {
    const xml = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key, format: 'xml' });
    t.equal(xml.status, 200);
    t.match(xml.headers.get('content-type'), /^text\/xml/);
    t.match(xml.text, /^<\?xml version="1.0" encoding="utf-8"\?>\n<message><header><status_code>200<\/status_code><execute_time>[\d.e-]+<\/execute_time><\/header><body><track><track_id>1<\/track_id>/);
    t.match(xml.text, /<commontrack_isrcs><item><item>GBAAA2000001<\/item><item>GBAAA2000002<\/item><\/item><\/commontrack_isrcs>/);
    t.match(xml.text, /<music_genre_list><music_genre><music_genre_id>14<\/music_genre_id>/);
    const xmlError = await s.get('/ws/1.1/track.get', { apikey: key, format: 'XML' });
    t.equal(xmlError.status, 400);
    t.match(xmlError.text, /<body\/><\/message>$|<body><\/body><\/message>$/);
    const jsonp = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key, format: 'jsonp', callback: 'app.cb' });
    t.match(jsonp.headers.get('content-type'), /^application\/javascript/);
    t.match(jsonp.text, /^app\.cb\(\{"message":\{"header":\{"status_code":200/);
    t.match(jsonp.text, /\}\);$/);
    const badCallback = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key, format: 'jsonp', callback: 'alert(1)//' });
    t.equal(badCallback.status, 400);
    t.match(badCallback.json.message.header.hint, /callback/);
    const badFormat = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: key, format: 'yaml' });
    t.equal(badFormat.status, 400);
    t.match(badFormat.json.message.header.hint, /format must be json, xml or jsonp/);
  });

  t.test('parameter tolerance', async (t) => {
    const base = { apikey: key };
    t.equal((await s.get('/ws/1.1/track.get', { ...base, track_id: ' 1 ', whatever: 'x', utm_source: 'y' })).status, 200, 'unknown parameters ignored');
    const empty = await s.get('/ws/1.1/track.get', { ...base, track_id: '', commontrack_id: '10' });
    t.equal(empty.json.message.body.track.track_id, 1, 'empty values count as absent');
    for (const v of ['1', 'True', 'true', '0', 'FALSE']) {
      t.equal((await s.get('/ws/1.1/album.tracks.get', { ...base, album_id: 1000, f_has_lyrics: v })).status, 200, `boolean ${v}`);
    }
    t.equal((await s.get('/ws/1.1/album.tracks.get', { ...base, album_id: 1000, f_has_lyrics: 'maybe' })).status, 400);
    t.equal((await s.get('/ws/1.1/artist.albums.get', { ...base, artist_id: 100, s_release_date: 'DeSc' })).status, 200, 'sort any case');
    const badSort = await s.get('/ws/1.1/artist.albums.get', { ...base, artist_id: 100, s_release_date: 'up' });
    t.equal(badSort.status, 400);
    t.match(badSort.json.message.header.hint, /^s_release_date must be asc or desc/);
    for (const size of ['0', '101', 'ten']) {
      const r = await s.get('/ws/1.1/album.tracks.get', { ...base, album_id: 1000, page_size: size });
      t.equal(r.status, 400, `page_size ${size}`);
      t.match(r.json.message.header.hint, /^page_size must be an integer from 1 to 100/);
    }
    const page0 = await s.get('/ws/1.1/album.tracks.get', { ...base, album_id: 1000, page: '0' });
    t.match(page0.json.message.header.hint, /^page must be/);
  });

  t.test('CORS preflight', async (t) => {
    const r = await fetch(`${s.url}/ws/1.1/track.get`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    t.equal(r.status, 204);
    t.equal(r.headers.get('access-control-allow-origin'), '*');
    t.match(r.headers.get('access-control-allow-headers'), /Authorization/);
    t.match(r.headers.get('access-control-expose-headers'), /x-refrain-header-status/);
  });

  t.test('operational endpoints', async (t) => {
    t.same((await s.get('/healthz')).json, { status: 'ok' });
    const ready = await s.get('/readyz');
    t.equal(ready.status, 200);
    t.equal(ready.json.tracks, 6);
    const metrics = await s.get('/metrics');
    t.equal(metrics.status, 200);
    t.match(metrics.text, /refrain_requests_total\{method="track.get",status="200"\} \d+/);
    t.match(metrics.text, /refrain_request_duration_seconds_bucket\{le="0.001",method="track.get",status="200"\}/);
    t.match(metrics.text, /refrain_requests_total\{method="unknown",status="405"\}/);
    t.match(metrics.text, new RegExp(`^refrain_native_addon ${process.env.REFRAIN_NATIVE === '0' ? 0 : 1}$`, 'm'), 'whether the native addon is in use');
    // --engine auto: the native kernel answers when the addon loads.
    const engine = process.env.REFRAIN_NATIVE === '0' ? 'ts' : 'native';
    t.equal(ready.json.index.engine, engine, '/readyz says which kernel answers');
    t.match(metrics.text, new RegExp(`^refrain_index_engine\\{engine="${engine}"\\} 1$`, 'm'), 'and /metrics');
    t.match(metrics.text, new RegExp(`^refrain_index_engine\\{engine="${engine === 'ts' ? 'native' : 'ts'}"\\} 0$`, 'm'));
    const missing = await s.get('/nowhere');
    t.equal(missing.status, 404);
  });

  t.test('openapi.json describes every method from the zod schemas', async (t) => {
    const r = await s.get('/ws/1.1/openapi.json');
    t.equal(r.status, 200);
    const doc = r.json;
    t.equal(doc.openapi, '3.1.0');
    t.equal(doc.info.version, '1.0.0');
    for (const m of ['track.get', 'track.lyrics.get', 'track.snippet.get', 'track.subtitle.get', 'track.richsync.get', 'artist.get', 'album.get',
      'artist.albums.get', 'album.tracks.get', 'chart.tracks.get', 'chart.artists.get', 'track.lyrics.analysis.get', 'track.lyricslens.get']) {
      t.ok(doc.paths[`/ws/1.1/${m}`]?.get, m);
    }
    const sub = doc.paths['/ws/1.1/track.subtitle.get'].get;
    const names = sub.parameters.map((p: { name: string }) => p.name);
    for (const n of ['apikey', 'format', 'track_id', 'commontrack_id', 'track_isrc', 'track_spotify_id', 'track_itunes_id', 'subtitle_format', 'f_subtitle_length', 'f_subtitle_length_max_deviation']) {
      t.ok(names.includes(n), n);
    }
    t.equal(doc.paths['/ws/1.1/track.lyricslens.get'].get.deprecated, true);
    const [success, failure] = sub.responses['200'].content['application/json'].schema.oneOf;
    t.ok(success.properties.message.properties.body.properties.subtitle.properties.subtitle_body, 'body schema from the resource schemas');
    t.same(failure.properties.message.properties.body, { type: 'array', maxItems: 0 }, 'HTTP 200 may also carry an error envelope');
    t.match(sub.responses['200'].description, /404 not found/);
    t.notOk(sub.responses['404'], 'a 404 is not an HTTP status in the default mode');
    t.ok(sub.responses['429'], 'a rate limit is');
    t.ok(doc.paths['/ws/1.1/track.lyrics.fingerprint.post'].post.responses['413'], 'so is a body over the cap');
  });

  t.test('openapi.json in --http-status mirror lists the HTTP error statuses', async (t) => {
    const mirror = await startTestServer(t, { flags: ['--http-status', 'mirror'] });
    const sub = (await mirror.get('/ws/1.1/openapi.json')).json.paths['/ws/1.1/track.subtitle.get'].get;
    t.ok(sub.responses['200'].content['application/json'].schema.properties.message, 'success alone under 200');
    t.match(sub.responses['404'].description, /not found/);
  });
});
