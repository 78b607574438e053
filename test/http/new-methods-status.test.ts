/**
 * The methods the real-clients issue added, in both status modes: the envelope's status and, in
 * --http-status mirror, the same HTTP status (the default keeps HTTP 200; checkHttpStatus enforces
 * docs/api.md's rule on every answer).
 */
import t from 'tap';
import { apiStatus, startTestServer } from '../helpers/server.js';
import { FIXTURE_RECORDS } from '../helpers/fixtures.js';

const GETS: [string, Record<string, string | number>, string, number][] = [
  ['music.genres.get', {}, 'enterprise', 200],
  ['languages.get', { get_romanized_info: 1 }, 'free', 200],
  ['artist.related.get', { artist_id: 100 }, 'enterprise', 200],
  ['artist.related.get', { artist_id: 99999 }, 'enterprise', 404],
  ['track.lyrics.translation.get', { track_id: 1, selected_language: 'it' }, 'enterprise', 200],
  ['track.lyrics.translation.get', { track_id: 999, selected_language: 'it' }, 'enterprise', 404],
  ['track.lyrics.translation.get', { track_id: 1, selected_language: 'xx' }, 'enterprise', 400],
  ['track.subtitle.translation.get', { track_id: 1, selected_language: 'it' }, 'free', 403],
  ['track.subtitle.translation.get', { track_id: 1, selected_language: 'it' }, 'basic', 200],
];
const POSTS: [string, Record<string, string | number>, string, number][] = [
  ['track.lyrics.post', { track_id: 1, lyrics_body: 'new words' }, 'enterprise', 200],
  ['track.lyrics.post', { track_id: 1 }, 'enterprise', 400],
  ['track.lyrics.post', { track_id: 1, lyrics_body: 'x' }, 'basic', 403],
  ['track.lyrics.feedback.post', { track_id: 5, feedback: 'wrong_lyrics' }, 'enterprise', 404],
  ['track.lyrics.post', { track_id: 1, lyrics_body: 'more new words' }, 'enterprise', 429],
];

for (const mode of ['200', 'mirror'] as const) {
  t.test(`--http-status ${mode}`, async (t) => {
    const s = await startTestServer(t, { records: FIXTURE_RECORDS, flags: ['--http-status', mode, '--contributions-per-key', '1'] });
    for (const [method, params, plan, status] of GETS) {
      const r = await s.get(`/ws/1.1/${method}`, { ...params, apikey: s.keys[plan as 'free'] });
      t.equal(r.status, status, `${method} ${JSON.stringify(params)}`);
      t.equal(r.httpStatus, mode === 'mirror' ? status : 200);
    }
    for (const [method, params, plan, status] of POSTS) {
      const qs = new URLSearchParams(Object.entries({ ...params, apikey: s.keys[plan as 'free'] }).map(([k, v]): [string, string] => [k, String(v)]));
      const res = await fetch(`${s.url}/ws/1.1/${method}?${qs}`, { method: 'POST' });
      t.equal(apiStatus(res, mode), status, `${method} ${JSON.stringify(params)}`);
      t.equal(res.status, mode === 'mirror' ? status : 200);
      await res.arrayBuffer();
    }
  });
}
