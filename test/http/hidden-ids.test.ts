/**
 * Through the server: ids padded with a byte-order mark or a newline answer 400 with a hint naming
 * the character (they were read as id 1), share pages take digits only, and work.post refuses a NUL
 * in its identifier and the year 0000 (issue 11, item 12).
 */
import t from 'tap';
import { startTestServer, apiStatus } from '../helpers/server.js';

t.test('hidden characters in ids, NUL and year 0000 in work.post', async (t) => {
  const s = await startTestServer(t);
  const apikey = s.keys.enterprise;

  for (const [raw, named] of [['%EF%BB%BF1', 'U+FEFF (a byte-order mark)'], ['1%0A', 'U+000A (a line feed)'], ['1%0D%0A', 'U+000D (a carriage return)'], ['1%00', 'U+0000 (NUL)']]) {
    const res = await fetch(`${s.url}/ws/1.1/track.get?apikey=${apikey}&track_id=${raw}`);
    const json = (await res.json()) as { message: { header: { status_code: number; hint: string }; body: unknown } };
    t.equal(apiStatus(res), 400, `track_id=${raw}`);
    t.equal(json.message.header.status_code, 400);
    t.equal(json.message.header.hint, `track_id must be a positive integer id: it holds ${named}; send it without hidden characters`);
    t.same(json.message.body, []);
  }
  const page = await fetch(`${s.url}/ws/1.1/album.tracks.get?apikey=${apikey}&album_id=1000&page_size=10%0A`);
  t.equal(apiStatus(page), 400, "integer parameters too");
  t.match(((await page.json()) as { message: { header: { hint: string } } }).message.header.hint, /^page_size must be an integer from 1 to 100: it holds U\+000A/);
  t.equal((await s.get('/ws/1.1/track.get', { apikey, track_id: ' 1 ' })).status, 200, 'ASCII spaces are still tolerated');

  const share = (await s.get('/ws/1.1/track.get', { apikey, track_id: 1 })).json.message.body.track.track_share_url as string;
  const rest = new URL(share).pathname.split('/').slice(3).join('/');
  t.equal((await fetch(share)).status, 200);
  for (const id of ['0x1', '1e0', '%EF%BB%BF1', '1%0A']) t.equal((await fetch(`${s.url}/lyrics/${id}/${rest}`)).status, 404, `share page /lyrics/${id}/`);

  const post = async (data: Record<string, unknown>) => {
    const res = await fetch(`${s.url}/ws/1.1/work.post?apikey=${apikey}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
    return { status: apiStatus(res), hint: res.headers.get('x-refrain-header-hint') };
  };
  const work = { identifier: 'HID-1', title: 'Hidden', owners: { writer: [{ name: 'Ada', perf_ownership_share: 5000 }] } };
  t.same(await post({ ...work, identifier: 'HID-\u00001' }), { status: 400, hint: 'data.identifier must not hold control characters: it holds U+0000 (NUL)' });
  t.same(await post({ ...work, validity_begin: '0000-01-01' }), {
    status: 400,
    hint: 'data.validity_begin must be a date from the year 1000 on, not 0000 (leave the field out when there is no date)',
  });
  t.equal((await post(work)).status, 200, 'the same work without them is taken');
});
