/** A string that cannot be a key is answered 401 with a hint saying what a key looks like (issue 11, item 4). */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('malformed keys: 401 in the API envelope, with the shape in the hint', async (t) => {
  const s = await startTestServer(t);
  for (const apikey of ['k'.repeat(1000), s.keys.free.toUpperCase(), `${s.keys.free}0`, s.keys.free.slice(1)]) {
    const r = await s.get('/ws/1.1/track.get', { track_id: 1, apikey });
    t.equal(r.status, 401);
    t.equal(r.json.message.header.status_code, 401);
    t.same(r.json.message.body, []);
    t.match(r.json.message.header.hint, /^malformed apikey: a key is 32 characters 0-9 and a-f/);
    t.equal(r.headers.get('x-refrain-header-hint'), r.json.message.header.hint);
  }
  t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey: s.keys.free })).status, 200, 'a real key still works');
});
