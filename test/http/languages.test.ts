/**
 * languages.get through the real server: ISO 639 codes and names from the iso-639-3 registry, and
 * the romanization fields of get_romanized_info=1.
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('languages.get', async (t) => {
  const s = await startTestServer(t);
  const plain = await s.get('/ws/1.1/languages.get', { apikey: s.keys.free });
  t.equal(plain.status, 200);
  const list = plain.json.message.body.language_list.map((e: { language: Record<string, unknown> }) => e.language);
  t.ok(list.length >= 180, `${list.length} languages`);
  t.same(list.find((l: { language_iso_code_1: string }) => l.language_iso_code_1 === 'en'), { language_iso_code_1: 'en', language_iso_code_3: 'eng', language_name: 'English' });
  t.same(list.map((l: { language_iso_code_1: string }) => l.language_iso_code_1), [...list.map((l: { language_iso_code_1: string }) => l.language_iso_code_1)].sort(), 'by code');
  t.ok(list.every((l: { language_iso_code_1: string; language_iso_code_3: string }) => /^[a-z]{2}$/.test(l.language_iso_code_1) && /^[a-z]{3}$/.test(l.language_iso_code_3)));

  const romanized = await s.get('/ws/1.1/languages.get', { apikey: s.keys.free, get_romanized_info: 1 });
  const byCode = new Map(romanized.json.message.body.language_list.map((e: { language: { language_iso_code_1: string } }) => [e.language.language_iso_code_1, e.language]));
  t.same(byCode.get('ja'), { language_iso_code_1: 'ja', language_iso_code_3: 'jpn', language_name: 'Japanese', has_romanization: 1, is_romanized: 0, iso_code_romanization: 'ja-Latn' });
  t.match(byCode.get('ru'), { has_romanization: 1, iso_code_romanization: 'ru-Latn' });
  t.match(byCode.get('it'), { has_romanization: 0, is_romanized: 0, iso_code_romanization: '' });

  const bad = await s.get('/ws/1.1/languages.get', { apikey: s.keys.free, get_romanized_info: 'maybe' });
  t.equal(bad.status, 400);
  t.match(bad.json.message.header.hint, /^get_romanized_info must be 1, 0, true or false/);
  t.equal((await s.get('/ws/1.1/languages.get')).status, 401);
  t.ok((await s.get('/ws/1.1/openapi.json')).json.paths['/ws/1.1/languages.get'].get, 'in the OpenAPI document');
});
