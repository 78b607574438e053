/**
 * Subtitles and richsyncs stored as timings (src/catalog/synced.ts) answer exactly the text that was
 * imported, in every output format; a richsync's body is spliced into the answer as a JSON string
 * written from its stored form (src/api/serialized.ts).
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { catalogLines } from '../../src/generate/catalog.js';

interface Generated {
  type: string;
  track_id: number;
  lyrics?: { lyrics_body: string };
  subtitle?: { subtitle_body: string };
  richsync?: { richsync_body: string };
  restricted?: number;
}

t.test('imported synced lyrics come back exactly, as JSON, JSONP and XML', async (t) => {
  const records: Generated[] = [];
  for (const line of catalogLines(5, 300, { artists: 0, albums: 0, tracks: 0, lines: 0 })) records.push(JSON.parse(line) as Generated);
  const synced = records.filter((r) => r.type === 'track' && r.richsync && r.subtitle).slice(0, 3);
  t.equal(synced.length, 3);
  // One of them restricted: its body is withheld, whatever its stored form.
  const restricted = { ...synced[2], restricted: 1 };
  const s = await startTestServer(t, { records: [...records.filter((r) => !synced.includes(r)), synced[0], synced[1], restricted] });
  const apikey = s.keys.enterprise;

  for (const tr of synced.slice(0, 2)) {
    const rich = await s.get('/ws/1.1/track.richsync.get', { track_id: tr.track_id, apikey });
    t.equal(rich.status, 200);
    t.equal(rich.json.message.body.richsync.richsync_body, tr.richsync!.richsync_body, `track ${tr.track_id}: richsync exact`);
    t.equal(rich.json.message.body.richsync.richsync_id, tr.track_id, 'the record\'s other fields are there');
    const again = await s.get('/ws/1.1/track.richsync.get', { track_id: tr.track_id, apikey });
    t.equal(again.text.replace(/"execute_time":[\d.e-]+/, ''), rich.text.replace(/"execute_time":[\d.e-]+/, ''), 'the cached answer is the same');
    const jsonp = await s.get('/ws/1.1/track.richsync.get', { track_id: tr.track_id, apikey, format: 'jsonp', callback: 'cb' });
    const inner = JSON.parse(jsonp.text.slice('cb('.length, -');'.length)) as { message: { body: { richsync: { richsync_body: string } } } };
    t.equal(inner.message.body.richsync.richsync_body, tr.richsync!.richsync_body, 'JSONP');
    const xml = await s.get('/ws/1.1/track.richsync.get', { track_id: tr.track_id, apikey, format: 'xml' });
    t.match(xml.text, /<richsync_body>\[\{&quot;ts&quot;:/, 'XML');
    const sub = await s.get('/ws/1.1/track.subtitle.get', { track_id: tr.track_id, apikey });
    t.equal(sub.json.message.body.subtitle.subtitle_body, tr.subtitle!.subtitle_body, `track ${tr.track_id}: subtitle exact`);
  }
  const withheld = await s.get('/ws/1.1/track.richsync.get', { track_id: restricted.track_id, apikey });
  t.equal(withheld.json.message.body.richsync.richsync_body, '', 'a restricted richsync has no body');
  t.equal(withheld.json.message.body.richsync.restricted, 1);
});
