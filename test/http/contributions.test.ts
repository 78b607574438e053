/**
 * track.lyrics.post and track.lyrics.feedback.post through the real server, and the operator's review
 * with `refrain contributions`: a contribution is stored as pending and changes nothing until it is
 * approved; approved lyrics go through the import's write path (change log, the API); every bad
 * parameter, plan and scope; the caps that keep a caller from filling the disk.
 */
import t from 'tap';
import { startTestServer, apiStatus, type TestServer } from '../helpers/server.js';
import { LYRICS } from '../helpers/fixtures.js';
import { execCli } from '../helpers/cli.js';
import type { Scope } from '../../src/oauth/scopes.js';

interface Answer {
  status: number;
  httpStatus: number;
  hint?: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

type Body = { json?: unknown; form?: string; text?: string };

/** POST a method with query parameters and a body (JSON when an object, else as given with its type). */
async function post(s: TestServer, method: string, query: Record<string, string | number>, body?: Body, auth?: { token: string }): Promise<Answer> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = `Bearer ${auth.token}`;
  let payload: string | undefined;
  if (body?.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body?.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = body.form;
  } else if (body?.text !== undefined) {
    headers['content-type'] = 'text/plain';
    payload = body.text;
  }
  const res = await fetch(`${s.url}/ws/1.1/${method}?${qs}`, { method: 'POST', headers, body: payload });
  const json = (await res.json()) as { message: { header: { hint?: string }; body: unknown } };
  return { status: apiStatus(res), httpStatus: res.status, hint: json.message.header.hint, body: json.message.body };
}

const NEW_LYRICS = 'A better first line\nA better second line\n\nAnd a verse';

t.test('track.lyrics.post and track.lyrics.feedback.post store pending contributions; an operator approves or rejects them', async (t) => {
  const s = await startTestServer(t);
  const key = { apikey: s.keys.enterprise };
  const lyricsNow = async (id = 1) => (await s.get('/ws/1.1/track.lyrics.get', { ...key, track_id: id })).json.message.body.lyrics;

  // Lyrics in the JSON body's data, in a form, or in the query alone (the public API's clients send that).
  const sent = await post(s, 'track.lyrics.post', { ...key, track_id: 1 }, { json: { data: { lyrics_body: NEW_LYRICS, lyrics_language: 'EN' } } });
  t.equal(sent.status, 200);
  const contribution = sent.body.contribution;
  t.match(contribution, { contribution_type: 'lyrics', status: 'pending', track_id: 1, lyrics_id: 1 });
  t.match(contribution.submitted_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.equal(contribution.lyrics_body, undefined, 'the answer does not echo the text');
  t.equal((await lyricsNow()).lyrics_body, LYRICS, 'nothing changes before review');
  const again = await post(s, 'track.lyrics.post', { ...key, track_id: 1, lyrics_body: NEW_LYRICS });
  t.equal(again.body.contribution.contribution_id, contribution.contribution_id, 'the same text again from the same caller: the same contribution');
  const form = await post(s, 'track.lyrics.post', { ...key }, { form: `track_isrc=GBAAA2000003&lyrics_body=${encodeURIComponent('Parole nuove\nper tutti')}` });
  t.equal(form.status, 200);
  t.equal(form.body.contribution.track_id, 3, 'a form body, the track by ISRC');
  const forNoLyrics = await post(s, 'track.lyrics.post', { ...key, track_id: 5, lyrics_body: 'Words for an instrumental?' });
  t.match(forNoLyrics.body.contribution, { track_id: 5, lyrics_id: 0 }, 'lyrics for a track that has none');

  const feedback = await post(s, 'track.lyrics.feedback.post', { ...key, track_id: 1, lyrics_id: 1, feedback: 'Wrong_Verses' });
  t.equal(feedback.status, 200);
  t.match(feedback.body.contribution, { contribution_type: 'feedback', feedback: 'wrong_verses', status: 'pending', track_id: 1, lyrics_id: 1 });
  const jsonFeedback = await post(s, 'track.lyrics.feedback.post', key, { json: { data: { commontrack_id: 10, feedback: 'bad_characters' } } });
  t.match(jsonFeedback.body.contribution, { track_id: 1, feedback: 'bad_characters' }, 'the commontrack\'s version with lyrics');

  // Bad parameters, missing tracks, the wrong plan or verb.
  const bad = async (method: string, query: Record<string, string | number>, status: number, hint: RegExp, body?: Body) => {
    const r = await post(s, method, { ...key, ...query }, body);
    t.equal(r.status, status, `${method} ${JSON.stringify(query)} ${JSON.stringify(body ?? {})}`);
    t.match(r.hint, hint);
    t.same(r.body, []);
  };
  await bad('track.lyrics.post', { track_id: 1 }, 400, /^lyrics_body is required/);
  await bad('track.lyrics.post', { track_id: 1, lyrics_body: '  \n ' }, 400, /^lyrics_body must not be blank/);
  await bad('track.lyrics.post', { track_id: 1 }, 400, /^lyrics_body must be text/, { json: { data: { lyrics_body: 'nul\u0000here' } } });
  await bad('track.lyrics.post', { track_id: 1 }, 400, /^lyrics_body must be at most 100000 characters/, { json: { data: { lyrics_body: 'la '.repeat(40_000) } } });
  await bad('track.lyrics.post', { track_id: 1, lyrics_body: 'x', lyrics_language: 'english' }, 400, /^lyrics_language must be a language code/);
  await bad('track.lyrics.post', { lyrics_body: 'x' }, 400, /one of track_id, commontrack_id/);
  await bad('track.lyrics.post', { track_id: 999, lyrics_body: 'x' }, 404, /no track with track_id 999/);
  await bad('track.lyrics.post', { track_id: 1 }, 400, /body must be JSON .*or a form/, { text: 'lyrics_body=x' });
  await bad('track.lyrics.post', { track_id: 1 }, 400, /data must be an object/, { json: { data: ['lyrics'] } });
  await bad('track.lyrics.feedback.post', { track_id: 1 }, 400, /^feedback is required$/);
  await bad('track.lyrics.feedback.post', { track_id: 1, feedback: 'too_loud' }, 400, /^feedback must be one of wrong_lyrics/);
  await bad('track.lyrics.feedback.post', { track_id: 1, lyrics_id: 77, feedback: 'wrong_lyrics' }, 404, /track 1's lyrics have lyrics_id 1, not 77/);
  await bad('track.lyrics.feedback.post', { track_id: 5, feedback: 'wrong_lyrics' }, 404, /track 5 has no lyrics/);
  const basic = await post(s, 'track.lyrics.post', { apikey: s.keys.basic, track_id: 1, lyrics_body: 'x' });
  t.equal(basic.status, 403);
  t.equal(basic.hint, 'Forbidden: track.lyrics.post needs the enterprise plan (this caller has the basic plan)');
  t.equal((await s.get('/ws/1.1/track.lyrics.feedback.post', { ...key, track_id: 1, feedback: 'wrong_lyrics' })).status, 405);

  // OAuth: the contributions:write scope.
  const client = (scopes: Scope[]) =>
    s.server.oauth.clients.create({ name: 'app', redirectUris: ['https://partner.example/cb'], grantTypes: ['client_credentials'], scopes, plan: 'enterprise' }).record;
  const token = async (scopes: Scope[]) => (await s.server.oauth.tokens.issueClientCredentials(client(scopes), scopes)).access_token;
  const reader = await post(s, 'track.lyrics.feedback.post', { track_id: 1, feedback: 'wrong_lyrics' }, undefined, { token: await token(['catalog:read']) });
  t.equal(reader.status, 403);
  t.equal(reader.hint, 'Forbidden: this access token lacks the contributions:write scope');
  const writer = await post(s, 'track.lyrics.feedback.post', { track_id: 1, feedback: 'wrong_lyrics' }, undefined, { token: await token(['contributions:write']) });
  t.equal(writer.status, 200);
  const openapi = (await s.get('/ws/1.1/openapi.json')).json;
  const op = openapi.paths['/ws/1.1/track.lyrics.post'].post;
  t.ok(op.parameters.some((p: { name: string }) => p.name === 'lyrics_body'));
  t.ok(op.requestBody.content['application/x-www-form-urlencoded'], 'a form body is documented');
  t.notOk(op.requestBody.required, 'the body is optional: the query may carry everything');

  // The operator's review.
  const list = await execCli(['contributions', 'list', '--data', s.data]);
  t.equal(list.code, 0, list.err);
  t.match(list.out, /#1 {2}pending {2}lyrics \(\d+ characters, en\)\n {4}track 1 "Full Song" by The Fixtures\n {4}sent .* by \(/);
  t.match(list.out, /feedback wrong_verses/);
  t.match(list.out, /6 pending$/m);
  const listed = JSON.parse((await execCli(['contributions', 'list', '--data', s.data, '--json', '--limit', '2'])).out);
  t.equal(listed.total, 6);
  t.same(listed.contributions.map((c: { contribution_id: number }) => c.contribution_id), [1, 2]);
  const show = await execCli(['contributions', 'show', '1', '--data', s.data]);
  t.match(show.out, /--- current lyrics\s*\n\+\+\+ proposed lyrics\s*\n[^]*-First line of the chorus\n[^]*\+A better first line/);

  const approved = await execCli(['contributions', 'approve', '1', '--data', s.data]);
  t.equal(approved.code, 0, approved.err);
  t.match(approved.out, /^#1 {2}approved {2}lyrics[^]*approved 20[^]*run `refrain index`/);
  s.server.catalog.refresh();
  await t.resolves(async () => {
    for (let i = 0; i < 100 && (await lyricsNow()).lyrics_body !== NEW_LYRICS; i++) await new Promise((r) => setTimeout(r, 100));
  });
  const lyrics = await lyricsNow();
  t.equal(lyrics.lyrics_body, NEW_LYRICS, 'the approved lyrics are served');
  t.equal(lyrics.lyrics_copyright, 'Writer(s): A. Tester', 'the rest of the lyrics record is kept');
  const track = (await s.get('/ws/1.1/track.get', { ...key, track_id: 1 })).json.message.body.track;
  t.equal(track.has_lyrics_crowd, 1);
  t.equal(track.has_subtitles, 1, "the track's other content is kept");
  t.ok(s.server.catalog.lastChange() > 0);
  const last = [...s.server.catalog.changesSince(s.server.catalog.lastChange() - 1)].map((c) => c.value);
  t.match(last, [{ op: 'put', kind: 'track', id: 1 }], 'logged like an import: feeds and the index follow');

  const twice = await execCli(['contributions', 'approve', '1', '--data', s.data]);
  t.equal(twice.code, 1);
  t.match(twice.err, /contribution 1 was already approved at/);
  const rejected = await execCli(['contributions', 'reject', '2', '4', '--reason', 'not lyrics', '--data', s.data, '--json']);
  t.equal(rejected.code, 0, rejected.err);
  t.same(JSON.parse(rejected.out).contributions.map((c: { status: string; reason: string }) => [c.status, c.reason]), [['rejected', 'not lyrics'], ['rejected', 'not lyrics']]);
  t.equal((await lyricsNow(3)).lyrics_body, 'Parole vietate in Italia\nma non altrove', 'a rejection changes nothing');
  const feedbackApproved = await execCli(['contributions', 'approve', '5', '--data', s.data]);
  t.match(feedbackApproved.out, /^#5 {2}approved {2}feedback bad_characters\n[^]* approved 20/);
  t.equal((await execCli(['contributions', 'approve', '99', '--data', s.data])).err.trim(), 'refrain contributions approve: no contribution 99 (refrain contributions list shows them)');
  t.equal((await execCli(['contributions', 'reject', 'abc', '--data', s.data])).code, 2);
  t.match((await execCli(['contributions', 'list', '--status', 'rejected', '--data', s.data])).out, /rejected 20.*: not lyrics/);
});

t.test('a caller can keep only so many contributions waiting, and so can the server', async (t) => {
  const s = await startTestServer(t, { flags: ['--contributions-per-key', '2', '--contributions-pending', '3'] });
  const send = (apikey: string, n: number) => post(s, 'track.lyrics.post', { apikey, track_id: 1, lyrics_body: `version ${n}` });
  t.equal((await send(s.keys.enterprise, 1)).status, 200);
  t.equal((await send(s.keys.enterprise, 2)).status, 200);
  const third = await send(s.keys.enterprise, 3);
  t.equal(third.status, 429);
  t.equal(third.httpStatus, 200, 'in the envelope: no Retry-After, waiting will not help until a review');
  t.equal(third.hint, 'this caller has 2 contributions awaiting review, the most allowed: send more once the operator has reviewed them');
  t.equal((await send(s.keys.enterprise, 1)).status, 200, 'a repeat is answered with the one stored, even at the cap');
  const other = s.makeKey({ plan: 'enterprise' }).key;
  t.equal((await send(other, 4)).status, 200);
  const full = await send(other, 5);
  t.equal(full.status, 429);
  t.equal(full.hint, '3 contributions are awaiting review, the most this server keeps: try again once the operator has reviewed them');
  t.equal((await execCli(['contributions', 'reject', '1', '--data', s.data])).code, 0);
  t.equal((await send(s.keys.enterprise, 3)).status, 200, 'a review makes room');
});
