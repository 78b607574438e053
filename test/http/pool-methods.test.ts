/**
 * The methods that answer from the index run whole in an index worker (ApiMethod.pool): what they
 * answer must not depend on where they ran. Each answer is compared with the same method run on
 * this thread with the same parameters (src/api/invoke.ts), in every output format, with the
 * response cache on and off, and the worker's own refusals (a bad parameter, a bad body) come back
 * with their status and hint.
 */
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SEARCH_RECORDS } from '../helpers/search-fixtures.js';
import { METHODS } from '../../src/api/registry.js';

const POOL = [...METHODS.values()].filter((m) => m.pool).map((m) => m.name).sort();

t.test('the pool methods are the index methods', async (t) => {
  t.same(POOL, ['artist.search', 'track.lyrics.fingerprint.batch.post', 'track.lyrics.fingerprint.post', 'track.search']);
});

for (const cache of ['on', 'off']) {
  t.test(`answers rendered in a worker (response cache ${cache})`, async (t) => {
    const api: TestServer = await startTestServer(t, { records: SEARCH_RECORDS, flags: cache === 'off' ? ['--response-cache', '0'] : [] });
    const key = api.keys.enterprise;

    const search = await api.get('/ws/1.1/track.search', { q_artist: 'beatles', apikey: key });
    t.equal(search.status, 200);
    t.same(search.json.message.body.track_list.map((x: { track: { track_id: number } }) => x.track.track_id), [1001, 1003, 1002]);
    t.equal(search.json.message.header.available, 3, 'the header fields a method sets in the worker reach the envelope');
    const track = search.json.message.body.track_list[0].track;
    t.match(track.track_share_url, new RegExp(`^${api.server.url}/`), 'share pages on the server\'s base URL');
    const credited = await api.get('/ws/1.1/track.search', { q_writer: 'lovelace', apikey: key });
    t.equal(credited.json.message.body.track_list[0].track.writer_list[0]?.writer.writer_name, 'Ada Lovelace', 'credits read in the worker');

    const again = await api.get('/ws/1.1/track.search', { q_artist: 'beatles', apikey: key });
    t.same(again.json.message.body, search.json.message.body, 'a repeat answers the same body');

    const xml = await api.get('/ws/1.1/track.search', { q_artist: 'beatles', apikey: key, format: 'xml' });
    t.match(xml.headers.get('content-type'), /^text\/xml/);
    t.match(xml.text, /<header><status_code>200<\/status_code><execute_time>[\d.e-]+<\/execute_time><available>3<\/available><\/header><body><track_list><track><track_id>1001<\/track_id>/);
    const jsonp = await api.get('/ws/1.1/artist.search', { q_artist: 'murray', apikey: key, format: 'jsonp', callback: 'cb' });
    t.match(jsonp.text, /^cb\(\{"message":\{"header":\{"status_code":200,"execute_time":[\d.e-]+,"available":1\},"body":\{"artist_list":\[\{"artist":\{"artist_id":500,/);

    const fp = await fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.post?apikey=${key}&format=xml`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { text: 'In the town where I was born, lived a man who sailed to sea' } }),
    });
    const fpXml = await fp.text();
    t.match(fpXml, /<track_list><item><similarity>[\d.]+<\/similarity><matched_chars>\d+<\/matched_chars><longest_match>\d+<\/longest_match><track><track_id>1001<\/track_id>/);
  });
}

t.test('refusals made in the worker', async (t) => {
  const api = await startTestServer(t, { records: SEARCH_RECORDS });
  const key = api.keys.enterprise;
  const bad = await api.get('/ws/1.1/track.search', { q_artist: 'beatles', page_size: 500, apikey: key });
  t.equal(bad.status, 400);
  t.match(bad.json.message.header.hint, /page_size/);
  const empty = await api.get('/ws/1.1/artist.search', { q_artist: '!!!', apikey: key });
  t.equal(empty.status, 400);
  t.match(empty.json.message.header.hint, /q_artist holds no letters or digits/);
  const post = (body: string, type = 'application/json') =>
    fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.post?apikey=${key}`, { method: 'POST', headers: { 'content-type': type }, body }).then(async (r) => (await r.json()) as { message: { header: { status_code: number; hint: string } } });
  const notJson = await post('{"data":');
  t.equal(notJson.message.header.status_code, 400);
  t.equal(notJson.message.header.hint, 'the body is not valid JSON');
  const short = await post(JSON.stringify({ data: { text: 'two words' } }));
  t.equal(short.message.header.status_code, 400);
  t.match(short.message.header.hint, /at least 3 words/);
  const text = await post('hello there you', 'text/plain');
  t.match(text.message.header.hint, /the body must be JSON/);
});
