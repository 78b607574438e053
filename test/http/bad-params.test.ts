/**
 * Every parameter of every method, given a malformed value, answers 400 with a hint that starts with
 * the parameter's name; parameters are read from the methods' own zod schemas, so a new parameter
 * is covered as soon as it exists.
 */
import t from 'tap';
import { z } from 'zod';
import { startTestServer, type TestServer, apiStatus } from '../helpers/server.js';
import { METHODS } from '../../src/api/registry.js';

/** A value each parameter must refuse. */
function badValue(name: string, schema: z.ZodType): string | undefined {
  for (const candidate of ['-1', 'x!', 'not-a-date', '2', 'a'.repeat(70), 'a'.repeat(600), '   ']) {
    if (!schema.safeParse(candidate).success) return candidate;
  }
  return undefined;
}

const VALID_TEXT = 'ten words of text that any screening method would happily take';

/** POST a JSON body to a method, with query parameters. */
async function post(s: TestServer, method: string, query: Record<string, string | number>, body: unknown) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await fetch(`${s.url}/ws/1.1/${method}?${qs}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: apiStatus(res), json: (await res.json()) as { message: { header: { hint: string } } } };
}

t.test('400 names the bad parameter, for every parameter of every method', async (t) => {
  const s = await startTestServer(t, { flags: ['--lyricslens-sunset', '2099-01-01'] });
  let checked = 0;
  for (const method of METHODS.values()) {
    const shape = (method.params as z.ZodObject).shape as Record<string, z.ZodType>;
    for (const [name, schema] of Object.entries(shape)) {
      // A batch's texts come in its NDJSON lines, not as `data` (test/http/batch.test.ts).
      if (method.input === 'ndjson' && name === 'data') continue;
      const value = badValue(name, schema);
      t.ok(value !== undefined, `${method.name} ${name} refuses something`);
      const query = { apikey: s.keys.enterprise, track_id: 1, artist_id: 100, album_id: 1000, selected_language: 'it', lyrics_body: 'la la', feedback: 'wrong_lyrics', [name]: value! };
      const r = method.http === 'POST' ? await post(s, method.name, query, name === 'data' ? { data: value } : { data: { text: VALID_TEXT } }) : await s.get(`/ws/1.1/${method.name}`, query);
      t.equal(r.status, 400, `${method.name} ${name}=${value}`);
      t.match(r.json.message.header.hint, new RegExp(`^${name} `), `${method.name}: the hint names ${name}`);
      checked++;
    }
  }
  t.ok(checked >= 40, `${checked} parameters checked`);
});
