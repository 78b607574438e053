/**
 * work.post through the real server (docs/api.md, work.post): who may call it, every validation
 * rule with its exact hint, the Work record it answers, resubmission history, links to catalog
 * tracks by ISRC (track.get, lyrics, and q_writer search after the background index rebuild, for a
 * track present before and one imported after), and concurrent submissions of one work.
 */
import t from 'tap';
import { once } from 'node:events';
import { startTestServer, type TestServer, apiStatus } from '../helpers/server.js';
import { writeJsonl } from '../helpers/tmp.js';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { Work } from '../../src/works/resource.js';
import type { Scope } from '../../src/oauth/scopes.js';
import type { Plan } from '../../src/auth/keys.js';

interface Posted {
  status: number;
  hint: string | null;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** POST work.post with `{"data": data}` (or the raw body given), as an API key or a Bearer token. */
async function post(s: TestServer, data: unknown, auth: { apikey?: string; token?: string } = { apikey: s.keys.enterprise }, raw?: string): Promise<Posted> {
  const qs = auth.apikey ? `?apikey=${auth.apikey}` : '';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  const res = await fetch(`${s.url}/ws/1.1/work.post${qs}`, { method: 'POST', headers, body: raw ?? JSON.stringify({ data }) });
  const json = (await res.json()) as { message: { header: { status_code: number; hint?: string }; body: unknown } };
  const status = apiStatus(res);
  if (json.message.header.status_code !== status) throw new Error(`envelope status ${json.message.header.status_code}, header ${status}`);
  return { status, hint: res.headers.get('x-refrain-header-hint'), body: json.message.body };
}

const WRITER = { name: 'Ada Quillfeather', role: 'CA', controlled: 'Y', ipi: '00123456789', mech_ownership_share: 2500, perf_ownership_share: 5000, sync_ownership_share: 2500 };
const PUBLISHER = { name: 'Fixture Songs Ltd', controlled: 'Y', role: 'E', mech_ownership_share: 7500, perf_ownership_share: 5000, sync_ownership_share: 7500 };

/** A complete, valid work; tests change one field at a time. */
function work(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    identifier: 'FS-0001',
    title: 'Full Song',
    alternate_titles: [{ title: 'Full Song (Live)' }, 'Song, Full'],
    iswc: 'T-034.524.680-1',
    isrc: ['GB-AAA-20-00001'],
    performers: ['The Fixtures'],
    owners: { publisher: [PUBLISHER], writer: [WRITER] },
    collection: {
      validity_begin: '2020-01-01',
      territories: [{ code: 'XW', mech_share: 5000, perf_share: 5000, sync_share: 5000 }, { code: '150', mech_share: 5000, perf_share: 0, sync_share: 0 }],
    },
    ...overrides,
  };
}

const SHARE = 'must be an integer from 0 to 10000 (hundredths of a percent)';
const TERRITORY = 'must be an ISO 3166-1 alpha-2 country (IT), XW or WORLD, or a UN M49 area code (150 = Europe)';
const writer = (fields: Record<string, unknown>) => ({ owners: { publisher: [PUBLISHER], writer: [WRITER, { ...WRITER, name: 'Second Writer', ...fields }] } });
const territories = (...list: Record<string, unknown>[]) => ({ collection: { validity_begin: '2020-01-01', territories: list } });
const zeroShares = { mech_ownership_share: 0, perf_ownership_share: 0, sync_ownership_share: 0 };

/** [what, data, the exact hint]. Each is a 400 with an empty body. */
const INVALID: [string, unknown, string][] = [
  ['no data', undefined, 'data is required'],
  ['data not an object', 'FS-0001', 'data must be an object: send {"data":{"identifier": "...", "title": "...", ...}}'],
  ['identifier missing', work({ identifier: undefined }), 'data.identifier is required'],
  ['identifier empty', work({ identifier: '  ' }), 'data.identifier must not be empty'],
  ['identifier too long', work({ identifier: 'X'.repeat(41) }), 'data.identifier must be at most 40 characters'],
  ['identifier not a string', work({ identifier: 17 }), 'data.identifier must be a string'],
  ['title missing', work({ title: undefined }), 'data.title is required'],
  ['title too long', work({ title: 'T'.repeat(501) }), 'data.title must be at most 500 characters'],
  ['alternate title wrong', work({ alternate_titles: [7] }), 'data.alternate_titles[0] must be a title or {"title": "..."}'],
  ['ISWC malformed', work({ iswc: 'T-34.524.680-1' }), 'data.iswc must be an ISWC such as T-034.524.680-1 or T0345246801'],
  ['ISWC check digit', work({ iswc: 'T-034.524.680-2' }), 'data.iswc has a wrong check digit: T-034.524.680-2 should end in 1'],
  ['ISWC check digit, compact form', work({ iswc: 'T0345246809' }), 'data.iswc has a wrong check digit: T-034.524.680-9 should end in 1'],
  ['ISRC malformed', work({ isrc: ['GBAAA2000001', 'GB-AAA-20-0001'] }), 'data.isrc[1] must be an ISRC such as GB-AAA-20-00001 (CC-XXX-YY-NNNNN, hyphens optional)'],
  ['ISRC with letters in the year', work({ isrc: 'GBAAAX000001' }), 'data.isrc[0] must be an ISRC such as GB-AAA-20-00001 (CC-XXX-YY-NNNNN, hyphens optional)'],
  ['collection date not a date', work({ collection: { validity_begin: '2021-02-30', territories: [{ code: 'IT' }] } }), 'data.collection.validity_begin must be a date as YYYY-MM-DD'],
  ['collection date missing', work({ collection: { territories: [{ code: 'IT' }] } }), 'data.collection.validity_begin is required'],
  ['work date in another format', work({ validity_begin: '20200101' }), 'data.validity_begin must be a date as YYYY-MM-DD'],
  ['work ends before it begins', work({ validity_begin: '2020-01-01', validity_end: '2019-12-31' }), 'data.validity_end must not be before validity_begin (2020-01-01)'],
  ['owner date', work(writer({ validity_begin: '2020-13-01', ...zeroShares })), 'data.owners.writer[1].validity_begin must be a date as YYYY-MM-DD'],
  ['writer name missing', work(writer({ name: undefined, ...zeroShares })), 'data.owners.writer[1].name is required'],
  ['IPI too short', work(writer({ ipi: '12345678', ...zeroShares })), 'data.owners.writer[1].ipi must be 9 to 11 digits (an IPI name number)'],
  ['IPI with letters', work(writer({ ipi: 'I-001234567', ...zeroShares })), 'data.owners.writer[1].ipi must be 9 to 11 digits (an IPI name number)'],
  ['writer role', work(writer({ role: 'XX', ...zeroShares })), 'data.owners.writer[1].role must be a CWR writer designation code: CA, C, A, AR, AD, TR, SA, SR, PA'],
  ['publisher role', work({ owners: { writer: [WRITER], publisher: [{ ...PUBLISHER, role: 'CA' }] } }), 'data.owners.publisher[0].role must be a CWR publisher type code: E, AM, SE, PA, ES, AQ'],
  ['controlled', work({ owners: { writer: [WRITER], publisher: [{ ...PUBLISHER, controlled: 'maybe' }] } }), 'data.owners.publisher[0].controlled must be Y or N'],
  ['share over 10000', work(writer({ ...zeroShares, mech_ownership_share: 10001 })), `data.owners.writer[1].mech_ownership_share ${SHARE}`],
  ['share negative', work(writer({ ...zeroShares, perf_ownership_share: -1 })), `data.owners.writer[1].perf_ownership_share ${SHARE}`],
  ['share a fraction', work(writer({ ...zeroShares, sync_ownership_share: 12.5 })), `data.owners.writer[1].sync_ownership_share ${SHARE}`],
  ['share a string', work(writer({ ...zeroShares, mech_ownership_share: '2500' })), `data.owners.writer[1].mech_ownership_share ${SHARE}`],
  ['writers not an array', work({ owners: { writer: WRITER } }), 'data.owners.writer must be an array'],
  ['mech ownership total', work(writer({ ...zeroShares, mech_ownership_share: 500 })),
    'data.owners mech_ownership_share adds up to 10500 (writers 3000, publishers 7500); at most 10000 (hundredths of a percent)'],
  ['perf ownership total', work(writer({ ...zeroShares, perf_ownership_share: 1 })),
    'data.owners perf_ownership_share adds up to 10001 (writers 5001, publishers 5000); at most 10000 (hundredths of a percent)'],
  ['sync ownership total', work(writer({ ...zeroShares, sync_ownership_share: 2 })),
    'data.owners sync_ownership_share adds up to 10002 (writers 2502, publishers 7500); at most 10000 (hundredths of a percent)'],
  ['territory unknown', work(territories({ code: 'XY', mech_share: 100 })), `data.collection.territories[0].code ${TERRITORY}`],
  ['territory region unknown', work(territories({ code: 'IT' }, { code: '999' })), `data.collection.territories[1].code ${TERRITORY}`],
  ['territory share', work(territories({ code: 'IT', perf_share: 10001 })), `data.collection.territories[0].perf_share ${SHARE}`],
  ['territory total', work(territories({ code: 'XW', mech_share: 6000 }, { code: 'it', mech_share: 5000 })),
    'data.collection.territories[1].mech_share brings the mech share collected in IT to 11000; at most 10000 (hundredths of a percent) per country'],
  ['territory total through a region', work(territories({ code: '155', sync_share: 9000 }, { code: 'FR', sync_share: 500 }, { code: '150', sync_share: 600 })),
    'data.collection.territories[2].sync_share brings the sync share collected in FR to 10100; at most 10000 (hundredths of a percent) per country'],
  ['no territories', work(territories()), 'data.collection.territories must list at least one territory'],
];

t.test('work.post', async (t) => {
  const s = await startTestServer(t);
  const enterprise = s.makeKey({ plan: 'enterprise', label: 'Fixture Songs portal' });

  t.test('who may call it', async (t) => {
    for (const plan of ['free', 'basic'] as Plan[]) {
      const r = await post(s, work(), { apikey: s.keys[plan] });
      t.equal(r.status, 403, `${plan} key`);
      t.equal(r.hint, `Forbidden: work.post needs the enterprise plan (this caller has the ${plan} plan)`);
      t.same(r.body, []);
    }
    const client = (plan: Plan, scopes: Scope[]) =>
      s.server.oauth.clients.create({ name: `works ${plan}`, redirectUris: ['https://partner.example/cb'], grantTypes: ['client_credentials'], scopes, plan }).record;
    const token = async (plan: Plan, scopes: Scope[]) => (await s.server.oauth.tokens.issueClientCredentials(client(plan, scopes), scopes)).access_token;

    const reader = await post(s, work(), { token: await token('enterprise', ['catalog:read']) });
    t.equal(reader.status, 403, 'a token without works:write');
    t.equal(reader.hint, 'Forbidden: this access token lacks the works:write scope');
    const basic = await post(s, work(), { token: await token('basic', ['works:write']) });
    t.equal(basic.status, 403, "works:write on a basic client: the client's plan decides");
    t.equal(basic.hint, 'Forbidden: work.post needs the enterprise plan (this caller has the basic plan)');

    const writerClient = client('enterprise', ['works:write']);
    const ok = await post(s, work({ identifier: 'TOKEN-1', iswc: undefined }), { token: (await s.server.oauth.tokens.issueClientCredentials(writerClient, ['works:write'])).access_token });
    t.equal(ok.status, 200, 'works:write on an enterprise client');
    t.equal(ok.body.source.sender_id, `oauth:${writerClient.client_id}`, "a token's work belongs to its client");
    t.equal(ok.body.source.sender_name, 'works enterprise');

    const get = await s.get('/ws/1.1/work.post', { apikey: s.keys.enterprise });
    t.equal(get.status, 405, 'GET is not allowed');
    t.equal(get.headers.get('allow'), 'POST');
  });

  t.test('every validation rule has a hint naming the field', async (t) => {
    for (const [what, data, hint] of INVALID) {
      const r = await post(s, data, { apikey: enterprise.key });
      t.equal(r.status, 400, `${what}: 400`);
      t.equal(r.hint, hint, `${what}: hint`);
      t.same(r.body, [], `${what}: empty body`);
    }
    const notJson = await post(s, undefined, { apikey: enterprise.key }, '{"data":');
    t.equal(notJson.status, 400);
    t.equal(notJson.hint, 'the body is not valid JSON');
    t.notOk(s.server.works.find(enterprise.keyId, 'FS-0001'), 'nothing was stored by a refused submission');
  });

  t.test('a valid submission answers the Work record of the spec', async (t) => {
    const r = await post(s, work({ identifier: ' FS-0001 ', isrc: ['gb-aaa-20-00001', 'GBAAA2000001', 'GBAAA2000003'], iswc: 't0345246801', filename: 'CW240101.V21', transmission_date: '2024-01-02' }), { apikey: enterprise.key });
    t.equal(r.status, 200);
    const w = r.body;
    t.ok(Work.safeParse(w).success, `matches the Work schema: ${JSON.stringify(Work.safeParse(w).error?.issues[0])}`);
    t.same(Object.keys(w).sort(), [
      'alternate_titles', 'collections', 'identifier', 'is_disabled', 'isrc', 'iswc', 'last_trasmission', 'owners', 'ownership', 'performers',
      'publisher_short_name', 'source', 'submissions', 'tablespace', 'title', 'type_of_right', 'validity_begin', 'validity_end', 'wgid', 'work_id',
    ], 'every field of the spec, spelled as the spec spells it');
    t.equal(w.identifier, 'FS-0001', 'trimmed');
    t.equal(w.iswc, 'T-034.524.680-1', 'ISWC in its canonical form');
    t.same(w.isrc, ['GBAAA2000001', 'GBAAA2000003'], 'ISRCs normalised to 12 characters, upper case, once each');
    t.same(w.alternate_titles, [{ title: 'Full Song (Live)' }, { title: 'Song, Full' }]);
    t.same(w.performers, [{ name: 'The Fixtures' }]);
    t.equal(w.wgid, String(w.work_id), 'the first work with its ISWC starts the group');
    t.equal(w.is_disabled, 0);
    t.equal(w.last_trasmission, '2024-01-02');
    t.equal(w.validity_begin, '2020-01-01');
    t.equal(w.validity_end, null);
    const writer = w.owners.writer[0];
    t.match(writer, {
      type: 'writer', name: 'Ada Quillfeather', role: 'CA', controlled: 'Y', ipi: '00123456789', identifier: '',
      mech_ownership_share: 2500, perf_ownership_share: 5000, sync_ownership_share: 2500, mech_society: '', validity_begin: '2020-01-01',
    });
    t.type(writer.id, 'number');
    t.match(w.owners.publisher[0], { type: 'publisher', name: 'Fixture Songs Ltd', role: 'E', ipi: '' });
    t.same(w.ownership, [
      { type_of_right: 'mech', share: 10000, controlled_share: 10000 },
      { type_of_right: 'perf', share: 10000, controlled_share: 10000 },
      { type_of_right: 'sync', share: 10000, controlled_share: 10000 },
    ]);
    const collection = w.collections['2020-01-01'];
    t.same(Object.keys(w.collections), ['2020-01-01']);
    t.equal(collection.validity_end, null);
    t.same(collection.territories[0].code, 'XW');
    t.ok(collection.territories[0].countries.length >= 249, 'XW covers every country');
    t.equal(collection.territories[0].publisher, null);
    t.equal(collection.territories[1].code, '150');
    t.ok(collection.territories[1].countries.includes('IT') && collection.territories[1].countries.includes('NO'), '150 (Europe) is expanded');
    t.notOk(collection.territories[1].countries.includes('US'));
    t.match(w.source, { sender_id: enterprise.keyId, sender_name: 'Fixture Songs portal', control: true });
    t.equal(w.submissions.length, 1);
    t.match(w.submissions[0], { source: enterprise.keyId, filename: 'CW240101.V21', transmission_date: '2024-01-02', disabled: 0 });
  });

  t.test('resubmissions: collections by date, validity ends, every submission kept', async (t) => {
    const key = { apikey: enterprise.key };
    const base = { identifier: 'HIST-1', isrc: [] };
    const first = await post(s, work({ ...base, collection: { validity_begin: '2020-01-01', territories: [{ code: 'IT', mech_share: 10000 }] } }), key);
    const second = await post(s, work({ ...base, title: 'Full Song (2022 edit)', collection: { validity_begin: '2022-07-01', territories: [{ code: 'FR', perf_share: 5000 }] } }), key);
    t.equal(second.body.work_id, first.body.work_id, 'the same work: same source, same identifier');
    t.equal(second.body.title, 'Full Song (2022 edit)', 'the work is updated');
    t.same(Object.keys(second.body.collections), ['2020-01-01', '2022-07-01']);
    t.equal(second.body.collections['2020-01-01'].validity_end, '2022-06-30', 'the previous collection ends the day before');
    t.equal(second.body.collections['2022-07-01'].validity_end, null);

    const between = await post(s, work({ ...base, collection: { validity_begin: '2021-03-01', territories: [{ code: 'DE', sync_share: 1 }] } }), key);
    t.same(Object.keys(between.body.collections), ['2020-01-01', '2021-03-01', '2022-07-01'], 'a back-dated collection goes between');
    t.same(Object.values(between.body.collections).map((c: any) => c.validity_end), ['2021-02-28', '2022-06-30', null]); // eslint-disable-line @typescript-eslint/no-explicit-any

    const replaced = await post(s, work({ ...base, owners: { writer: [{ name: 'Only Writer', perf_ownership_share: 10000 }] }, collection: { validity_begin: '2022-07-01', territories: [{ code: 'ES', mech_share: 100, publisher: 'Sub Publisher SL' }] } }), key);
    t.same(replaced.body.collections['2022-07-01'].territories, [{ code: 'ES', countries: ['ES'], mech_share: 100, perf_share: 0, publisher: 'Sub Publisher SL', sync_share: 0 }], 'a collection with the same date is replaced');
    t.same(replaced.body.owners.writer.map((o: { name: string }) => o.name), ['Only Writer'], 'owners are those of the latest submission');
    t.same(replaced.body.owners.publisher, []);
    const none = await post(s, work({ ...base, collection: undefined }), key);
    t.same(Object.keys(none.body.collections), ['2020-01-01', '2021-03-01', '2022-07-01'], 'a submission without a collection keeps them');
    t.equal(none.body.submissions.length, 5, 'every submission is recorded');
    t.same(none.body.submissions.map((x: { id: number }) => x.id), [...none.body.submissions.map((x: { id: number }) => x.id)].sort((a, b) => a - b));

    const other = s.makeKey({ plan: 'enterprise' });
    const elsewhere = await post(s, work({ ...base, iswc: 'T-034.524.680-1' }), { apikey: other.key });
    t.not(elsewhere.body.work_id, first.body.work_id, 'another source has its own work under the same identifier');
    t.equal(elsewhere.body.submissions.length, 1);
    const grouped = await post(s, work({ identifier: 'FS-0001' }), key);
    t.equal(elsewhere.body.wgid, grouped.body.wgid, 'works sharing an ISWC share the wgid');
    t.equal(grouped.body.owners.writer[0].id, first.body.owners.writer[0].id, 'the same IPI is the same party in every work');
  });

  t.test('concurrent submissions of one work: none is lost', async (t) => {
    const key = { apikey: enterprise.key };
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => post(s, work({ identifier: 'RACE-1', title: `Take ${i}`, isrc: [] }), key)));
    t.same(replies.map((r) => r.status), Array(10).fill(200));
    t.same(replies.map((r) => r.body.submissions.length).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'each saw the ones before it');
    const store = s.server.works;
    const stored = store.find(enterprise.keyId, 'RACE-1')!;
    t.equal(store.submissionsOf(stored.work_id).length, 10, '10 submissions recorded');
    t.equal(new Set(replies.map((r) => r.body.work_id)).size, 1, 'one work');
  });
});

t.test('works lend their writers to catalog tracks by ISRC', async (t) => {
  const s = await startTestServer(t);
  const before = s.server.catalog.lastChange();
  const rebuilt = once(s.server.index, 'generation');
  const linked = await post(s, {
    identifier: 'LINK-1', title: 'Full Song', isrc: ['GBAAA2000001', 'GBAAA2099999'],
    owners: { writer: [{ name: 'Zygmunt Quillfeather', role: 'C', ipi: '123456789' }], publisher: [{ name: 'Marrowbone Music', role: 'E' }] },
  });
  t.equal(linked.status, 200);
  t.same(
    [...s.server.catalog.changesSince(before)].map((c) => [c.value.op, c.value.kind, c.value.id]),
    [['put', 'track', 1]],
    'one change-log entry for the one catalog track the work names',
  );
  s.server.refreshCatalog();

  const track = (await s.get('/ws/1.1/track.get', { track_id: 1, apikey: s.keys.basic })).json.message.body.track;
  t.same(track.writer_list, [{ writer: { writer_name: 'Zygmunt Quillfeather', writer_ipi: '123456789', writer_role: 'C', work_id: linked.body.work_id } }]);
  t.same(track.publisher_list, [{ publisher: { publisher_name: 'Marrowbone Music', publisher_ipi: '', publisher_role: 'E', work_id: linked.body.work_id } }]);
  const lyrics = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey: s.keys.basic })).json.message.body.lyrics;
  t.equal(lyrics.writer_list[0].writer.writer_name, 'Zygmunt Quillfeather', 'the lyrics show them too');
  const other = (await s.get('/ws/1.1/track.get', { track_id: 2, apikey: s.keys.basic })).json.message.body.track;
  t.same(other.writer_list, [], 'a track of another ISRC shows none');

  await rebuilt;
  const found = await s.get('/ws/1.1/track.search', { q_writer: 'quillfeather', apikey: s.keys.basic });
  t.same(found.json.message.body.track_list.map((x: { track: { track_id: number } }) => x.track.track_id), [1], 'q_writer finds the track after the rebuild');

  // A track imported later whose ISRC a work already names shows the work's writers.
  const rebuiltAgain = once(s.server.index, 'generation');
  const catalog = Catalog.open(s.data);
  await importFiles(catalog, [writeJsonl(s.data, 'later.jsonl', [
    { type: 'track', track_id: 77, track_name: 'Late Arrival', artist_id: 100, artist_name: 'The Fixtures', track_isrc: 'GB-AAA-20-99999',
      lyrics: { lyrics_body: 'a late song arrives', lyrics_language: 'en' } },
  ])]);
  await catalog.close();
  s.server.refreshCatalog();
  const late = (await s.get('/ws/1.1/track.get', { track_id: 77, apikey: s.keys.basic })).json.message.body.track;
  t.equal(late.writer_list[0]?.writer.writer_name, 'Zygmunt Quillfeather', 'joined when shown');
  await rebuiltAgain;
  const both = await s.get('/ws/1.1/track.search', { q_writer: 'Zygmunt', apikey: s.keys.basic });
  t.same(both.json.message.body.track_list.map((x: { track: { track_id: number } }) => x.track.track_id).sort(), [1, 77], 'and indexed');

  // Dropping an ISRC unlinks its track (and logs the change).
  const seq = s.server.catalog.lastChange();
  const dropped = await post(s, { identifier: 'LINK-1', title: 'Full Song', isrc: ['GBAAA2099999'], owners: { writer: [{ name: 'Zygmunt Quillfeather', ipi: '123456789' }] } });
  t.equal(dropped.status, 200);
  t.same([...s.server.catalog.changesSince(seq)].map((c) => c.value.id).sort(), [1, 77], 'track 1 lost its link; track 77 changed credits');
  s.server.refreshCatalog();
  const unlinked = (await s.get('/ws/1.1/track.get', { track_id: 1, apikey: s.keys.basic })).json.message.body.track;
  t.same(unlinked.writer_list, []);
});
