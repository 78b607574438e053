/**
 * track.lyrics.translation.get and track.subtitle.translation.get through the real server: the
 * original with its translation, `{}` when none is complete enough, the version of a recording that
 * has the translation, plans, restrictions, tracking, every bad parameter, and the import rules.
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { FIXTURE_RECORDS, LYRICS, TRACKS } from '../helpers/fixtures.js';
import { importRecordSchema } from '../../src/catalog/schema.js';

// LYRICS: "First line of the chorus / Second line here / (blank) / A verse that goes on and on /
// And then some more words / (blank) / Last line": five sung lines.
const IT = 'Prima riga del ritornello\nSeconda riga qui\n\nUna strofa che va avanti\nE poi altre parole\n\nUltima riga';
const DE = 'Erste Zeile des Refrains';
const [full, live, blocked, ...rest] = TRACKS;
const RECORDS = [
  ...FIXTURE_RECORDS.filter((r) => r.type !== 'track'),
  { ...full, translations: [{ language: 'it', lyrics_body: IT }, { language: 'DE', lyrics_body: DE }] },
  { ...live, translations: [{ language: 'fr', lyrics_body: 'Première ligne du refrain', subtitle_body: undefined }] },
  { ...blocked, translations: [{ language: 'en', lyrics_body: 'Words forbidden in Italy\nbut not elsewhere' }] },
  ...rest,
];

t.test('track.lyrics.translation.get: the lyrics and their translation', async (t) => {
  const s = await startTestServer(t, { records: RECORDS });
  const get = (params: Record<string, string | number | undefined>, key = s.keys.enterprise) =>
    s.get('/ws/1.1/track.lyrics.translation.get', { apikey: key, ...params });

  const r = await get({ track_id: 1, selected_language: 'it' });
  t.equal(r.status, 200);
  const lyrics = r.json.message.body.lyrics;
  t.equal(lyrics.lyrics_body, LYRICS, 'the original lyrics, as track.lyrics.get gives them');
  t.equal(lyrics.lyrics_language, 'en');
  const { script_tracking_url, pixel_tracking_url, html_tracking_url, ...translated } = lyrics.lyrics_translated;
  t.same(translated, { lyrics_body: IT, selected_language: 'it', restricted: 0 });
  t.not(pixel_tracking_url, lyrics.pixel_tracking_url, 'the translation is tracked on its own');
  t.match(script_tracking_url, /\/t1\.0\/js\//);
  t.match(html_tracking_url, /\/t1\.0\/html\//);
  const hit = await fetch(pixel_tracking_url.replace(/^https?:\/\/[^/]+/, s.url));
  t.equal(hit.status, 200);
  t.equal(hit.headers.get('x-refrain-tracking'), 'counted');

  t.equal((await get({ track_id: 1, selected_language: 'IT' })).json.message.body.lyrics.lyrics_translated.selected_language, 'it', 'any case');

  // The German translation covers 1 of 5 sung lines.
  t.equal((await get({ track_id: 1, selected_language: 'de' })).json.message.body.lyrics.lyrics_translated.lyrics_body, DE);
  t.equal((await get({ track_id: 1, selected_language: 'de', min_completed: 0.2 })).json.message.body.lyrics.lyrics_translated.lyrics_body, DE);
  const tooLittle = await get({ track_id: 1, selected_language: 'de', min_completed: '0.5' });
  t.equal(tooLittle.status, 200);
  t.same(tooLittle.json.message.body.lyrics.lyrics_translated, {}, 'none complete enough: {}');
  t.equal(tooLittle.json.message.body.lyrics.lyrics_body, LYRICS);
  t.same((await get({ track_id: 1, selected_language: 'ja' })).json.message.body.lyrics.lyrics_translated, {}, 'no translation to that language: {}');

  // Several versions behind one id: the one with the translation answers.
  const fr = await get({ commontrack_id: 10, selected_language: 'fr' });
  t.equal(fr.json.message.body.lyrics.lyrics_translated.lyrics_body, 'Première ligne du refrain');
  t.match(fr.json.message.body.lyrics.lyrics_translated.pixel_tracking_url, /\/t1\.0\/img\//);
  t.equal((await get({ track_isrc: 'GBAAA2000001', selected_language: 'it' })).json.message.body.lyrics.lyrics_translated.selected_language, 'it');

  // The status every track shows says what exists.
  const track = (await s.get('/ws/1.1/track.get', { apikey: s.keys.enterprise, track_id: 1 })).json.message.body.track;
  t.same(track.track_lyrics_translation_status, [{ from: 'en', to: 'it', perc: 1 }, { from: 'en', to: 'de', perc: 0.2 }]);
  const noTranslation = (await s.get('/ws/1.1/track.get', { apikey: s.keys.enterprise, track_id: 4 })).json.message.body.track;
  t.same(noTranslation.track_lyrics_translation_status, []);

  // Free plan: 30% of the translation too; restricted where the lyrics are.
  const free = (await get({ track_id: 1, selected_language: 'it' }, s.keys.free)).json.message.body.lyrics.lyrics_translated;
  t.match(free.lyrics_body, /^Prima riga del ritornello\n[^]*NOT for Commercial use/);
  t.notMatch(free.lyrics_body, /Ultima riga/);
  const italy = s.makeKey({ plan: 'enterprise', country: 'IT' }).key;
  const inItaly = (await get({ track_id: 3, selected_language: 'en' }, italy)).json.message.body.lyrics;
  t.equal(inItaly.restricted, 1);
  t.equal(inItaly.lyrics_translated.restricted, 1);
  t.equal(inItaly.lyrics_translated.lyrics_body, '');
  t.equal((await get({ track_id: 3, selected_language: 'en' })).json.message.body.lyrics.lyrics_translated.lyrics_body, 'Words forbidden in Italy\nbut not elsewhere');

  // Bad parameters and missing things.
  const bad = async (params: Record<string, string | number | undefined>, status: number, hint: RegExp) => {
    const reply = await get(params);
    t.equal(reply.status, status, JSON.stringify(params));
    t.match(reply.json.message.header.hint, hint);
  };
  await bad({ track_id: 1 }, 400, /selected_language/);
  await bad({ track_id: 1, selected_language: 'xx' }, 400, /selected_language.*ISO 639-1/);
  await bad({ track_id: 1, selected_language: 'ita' }, 400, /selected_language/);
  await bad({ track_id: 1, selected_language: 'it', min_completed: 2 }, 400, /min_completed.*0 to 1/);
  await bad({ track_id: 1, selected_language: 'it', min_completed: 'half' }, 400, /min_completed/);
  await bad({ selected_language: 'it' }, 400, /track_id/);
  await bad({ track_id: 999, selected_language: 'it' }, 404, /no track with track_id 999/);
  await bad({ track_id: 5, selected_language: 'it' }, 404, /has no lyrics/);
  t.equal((await s.get('/ws/1.1/track.lyrics.translation.get', { track_id: 1, selected_language: 'it' })).status, 401);

  const openapi = (await s.get('/ws/1.1/openapi.json')).json;
  t.ok(openapi.paths['/ws/1.1/track.lyrics.translation.get'].get.parameters.some((p: { name: string }) => p.name === 'min_completed'));
});

t.test('track.subtitle.translation.get: the subtitle and its translation, made from the lyrics translation', async (t) => {
  const lrc = '[00:01.00] Prima riga\n[00:02.00] Ultima riga';
  const own = { ...full, track_id: 7, commontrack_id: 70, track_isrc: 'GBAAA2000007', track_spotify_id: undefined, track_itunes_id: undefined,
    translations: [{ language: 'es', lyrics_body: 'Primera línea', subtitle_body: lrc }] };
  const s = await startTestServer(t, { records: [...RECORDS, own] });
  const get = (params: Record<string, string | number | undefined>, key = s.keys.basic) =>
    s.get('/ws/1.1/track.subtitle.translation.get', { apikey: key, ...params });

  const r = await get({ track_id: 1, selected_language: 'it' });
  t.equal(r.status, 200);
  const subtitle = r.json.message.body.subtitle;
  t.match(subtitle.subtitle_body, /^\[00:12\.30\] First line of the chorus/);
  const { subtitle_body, selected_language, restricted } = subtitle.subtitle_translated;
  t.equal(subtitle_body, '[00:12.30] Prima riga del ritornello\n[00:15.00] Seconda riga qui\n[01:02.05] Ultima riga', 'the same times, each line translated');
  t.same([selected_language, restricted], ['it', 0]);
  t.match(subtitle.subtitle_translated.pixel_tracking_url, /\/t1\.0\/img\//);

  const mxm = (await get({ track_id: 1, selected_language: 'it', subtitle_format: 'mxm' })).json.message.body.subtitle.subtitle_translated;
  t.same(JSON.parse(mxm.subtitle_body)[0], { text: 'Prima riga del ritornello', time: { total: 12.3, minutes: 0, seconds: 12, hundredths: 30 } });
  const dfxp = (await get({ track_id: 1, selected_language: 'it', subtitle_format: 'dfxp' })).json.message.body.subtitle.subtitle_translated;
  t.match(dfxp.subtitle_body, /xml:lang="it"[^]*Prima riga del ritornello/);

  // German: only the first of the three timed lines is translated (0.33).
  const de = (await get({ track_id: 1, selected_language: 'de' })).json.message.body.subtitle.subtitle_translated;
  t.equal(de.subtitle_body, '[00:12.30] Erste Zeile des Refrains\n[00:15.00]\n[01:02.05]');
  t.same((await get({ track_id: 1, selected_language: 'de', min_completed: 0.5 })).json.message.body.subtitle.subtitle_translated, {});
  t.equal((await get({ track_id: 7, selected_language: 'es' })).json.message.body.subtitle.subtitle_translated.subtitle_body, lrc, 'an imported subtitle translation is kept as given');
  t.same((await get({ track_id: 1, selected_language: 'fr' })).json.message.body.subtitle.subtitle_translated, {}, 'this version has no French');

  const bad = async (params: Record<string, string | number | undefined>, status: number, hint: RegExp, key?: string) => {
    const reply = await get(params, key);
    t.equal(reply.status, status, JSON.stringify(params));
    t.match(reply.json.message.header.hint, hint);
  };
  await bad({ track_id: 1, selected_language: 'it' }, 403, /subtitles need the basic or enterprise plan/, s.keys.free);
  await bad({ track_id: 1, selected_language: 'it', f_subtitle_length: 200 }, 404, /no subtitle of length 200/);
  await bad({ track_id: 1, selected_language: 'it', subtitle_format: 'srt' }, 400, /subtitle_format/);
  await bad({ track_id: 1, selected_language: 'zz' }, 400, /selected_language/);
  await bad({ track_id: 3, selected_language: 'en' }, 404, /has no subtitle/);
  t.equal((await get({ track_id: 1, selected_language: 'it', f_subtitle_length: 71, f_subtitle_length_max_deviation: 1 })).status, 200);
});

t.test('import: translations need lyrics, a subtitle translation needs a subtitle, one per language', async (t) => {
  const track = { type: 'track', track_id: 1, track_name: 'x', artist_id: 1, artist_name: 'y' };
  const issues = (record: object) => {
    const r = importRecordSchema.safeParse(record);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  t.same(issues({ ...track, translations: [{ language: 'it', lyrics_body: 'a' }] }), ['translations: translations need the lyrics they translate']);
  const lyrics = { lyrics_body: 'a' };
  t.same(issues({ ...track, lyrics, translations: [{ language: 'it', lyrics_body: 'a', subtitle_body: '[00:01.00] a' }] }), ["translations: a translation with a subtitle_body needs the track's subtitle"]);
  t.same(issues({ ...track, lyrics, translations: [{ language: 'it', lyrics_body: 'a' }, { language: 'IT', lyrics_body: 'b' }] }), ['translations: one translation per language']);
  t.match(issues({ ...track, lyrics, translations: [{ language: 'ita', lyrics_body: 'a' }] }).join(), /translations\.0\.language: an ISO 639-1 code/);
  t.match(issues({ ...track, lyrics, translations: [{ language: 'it', lyrics_body: 'a', perc: 1.5 }] }).join(), /translations\.0\.perc/);
  const ok = importRecordSchema.parse({ ...track, lyrics, translations: [{ language: 'it', lyrics_body: 'a', perc: 0.5 }] });
  t.same(ok.type === 'track' && ok.translations, [{ language: 'it', lyrics_body: 'a', perc: 0.5, restricted: 0 }]);
});
