/**
 * Field names and types compared with real responses of the public API
 * (../shared/reference/responses/): every field a real response has, Refrain has too, with the same
 * JSON type, except the few listed in OMITTED with the reason.
 */
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';

const REFERENCE = path.resolve(import.meta.dirname, '../../../shared/reference/responses');
const load = (name: string) => JSON.parse(readFileSync(path.join(REFERENCE, name), 'utf8'));

/** Fields of the public service that point at its own website, which Refrain does not have. */
const OMITTED = new Set(['artist_edit_url', 'artist_share_url']);

const kind = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

function compare(t: Test, ours: Record<string, unknown>, theirs: Record<string, unknown>, where: string): void {
  for (const [field, value] of Object.entries(theirs)) {
    if (OMITTED.has(field)) continue;
    t.ok(field in ours, `${where}.${field} present`);
    if (field in ours && value !== null) t.equal(kind(ours[field]), kind(value), `${where}.${field} is ${kind(value)}`);
  }
}

t.test('responses have the fields and types of the public API', async (t) => {
  const s = await startTestServer(t);
  const get = async (method: string, params: Record<string, string | number>) =>
    (await s.get(`/ws/1.1/${method}`, { ...params, apikey: s.keys.enterprise })).json.message;

  const track = (await get('track.get', { track_id: 1 })).body.track;
  compare(t, track, load('docs.track.lyrics.fingerprint.post.response.json').track_list[0].track, 'track');
  compare(t, track, load('docs.matcher.track.get.restricted-artist_only-shallow.json').message.body.track, 'track');
  compare(t, track, load('matcher.track.get.real_2019_queen.json').message.body.track, 'track');
  compare(t, track, load('track.search.real_2020_real-time-web-1920.json').message.body.track_list[0].track, 'track');

  const lyrics = (await get('track.lyrics.get', { track_id: 1 })).body.lyrics;
  compare(t, lyrics, load('docs.track.lyrics.get.full_alejandro.json').message.body.lyrics, 'lyrics');
  compare(t, lyrics, load('docs.enterprise.track.lyrics.get.region_restriction_country.json').message.body.lyrics, 'lyrics');

  compare(t, (await get('track.snippet.get', { track_id: 1 })).body.snippet, load('docs-old.track.snippet.get.titanium.json').message.body.snippet, 'snippet');
  const richsync = await get('track.richsync.get', { track_id: 1 });
  compare(t, richsync.body.richsync, load('track.richsync.get.real_2017_huilv-player.json').message.body.richsync, 'richsync');
  compare(t, richsync.header, load('track.richsync.get.real_2017_huilv-player.json').message.header, 'richsync header');
  compare(t, (await get('artist.get', { artist_id: 100 })).body.artist, load('artist.get.real_2018_coldplay_yakupadakli.json').message.body.artist, 'artist');

  const mxm = JSON.parse((await get('track.subtitle.get', { track_id: 1, subtitle_format: 'mxm' })).body.subtitle.subtitle_body);
  compare(t, mxm[0], load('format.subtitle_mxm.example.json')[0], 'mxm line');
  compare(t, mxm[0].time, load('format.subtitle_mxm.example.json')[0].time, 'mxm time');

  const error = (await s.get('/ws/1.1/track.get', { track_id: 999, apikey: s.keys.basic })).json;
  const reference = load('error.404.real_DemChing_ts-musixmatch.json');
  compare(t, error.message, reference.message, 'error');
  compare(t, error.message.header, reference.message.header, 'error header');
});
