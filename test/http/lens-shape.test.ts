/**
 * The analysis answers as a strict client validates them: every member of the lens present, each
 * with its fields and a `description`, or `{}` when it has nothing to say; for an imported analysis
 * that carries only some members, and for a generated one that carries all.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { startTestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';
import { writeCatalog } from '../../src/generate/write.js';

const empty = z.object({}).strict();
const match = z.object({ start_char: z.number(), end_char: z.number(), matched_text: z.string() }).strict();
const member = <T extends z.ZodRawShape>(shape: T) => z.union([z.object({ description: z.string(), ...shape }).strict(), empty]);
const strictLens = z
  .object({
    entities: member({ entity_list: z.array(z.looseObject({ entity_name: z.string(), matches: z.array(match) })) }),
    explicitness: member({
      is_explicit: z.boolean(),
      explicit_expressions: z.array(z.object({ expression: z.string(), category: z.string(), severity: z.enum(['moderate', 'strong']), matches: z.array(match).min(1) }).strict()),
    }),
    language_detection: member({
      languages: z.array(z.object({ is_romanized: z.boolean(), language_iso_code_1: z.string(), language_iso_code_3: z.string(), language_name: z.string(), percentage: z.number() }).strict()),
    }),
    meaning: member({ explanation: z.string() }),
    moderation: member({ categories: z.array(z.object({ category: z.string(), is_present: z.boolean(), score: z.number() }).strict()), needs_moderation: z.boolean() }),
    moods: member({ main_moods: z.array(z.string()) }),
    rating: member({ audience: z.string(), descriptor: z.string() }),
    religion: member({ has_references: z.boolean() }),
    themes: member({ main_themes: z.array(z.object({ theme: z.string(), quotes: z.array(z.string()) }).strict()) }),
  })
  .strict();

t.test('an imported analysis with some members: the others are {}, described ones keep their description', async (t) => {
  const s = await startTestServer(t, { flags: ['--lyricslens-sunset', '2099-01-01'] });
  const { analysis } = (await s.get('/ws/1.1/track.lyrics.analysis.get', { track_id: 1, apikey: s.keys.basic })).json.message.body;
  const parsed = strictLens.safeParse(analysis);
  t.ok(parsed.success, parsed.error?.message ?? 'strict shape');
  t.same(analysis.explicitness, {}, 'a member the import left out is {}');
  t.equal(analysis.meaning.description, 'about tests');
  const { lens } = (await s.get('/ws/1.1/track.lyricslens.get', { track_id: 1, apikey: s.keys.basic })).json.message.body;
  t.same(lens, analysis, 'the deprecated lens is the same');
});

t.test('a generated analysis carries every member, explicit expressions with their offsets', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'c.jsonl');
  await writeCatalog({ tracks: 300, seed: 5 }, file);
  const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const analysed = records.filter((r) => r.type === 'track' && r.analysis);
  t.ok(analysed.length > 20);
  const s = await startTestServer(t, { records });
  let explicit = 0;
  for (const r of analysed.slice(0, 60)) {
    const { analysis } = (await s.get('/ws/1.1/track.lyrics.analysis.get', { track_id: r.track_id, apikey: s.keys.basic })).json.message.body;
    const parsed = strictLens.safeParse(analysis);
    t.ok(parsed.success, `track ${r.track_id}: ${parsed.error?.message ?? 'strict shape'}`);
    for (const key of Object.keys(analysis)) t.not(analysis[key], undefined);
    t.equal(typeof analysis.entities.description, 'string');
    if (analysis.explicitness.is_explicit) {
      explicit++;
      const body: string = r.lyrics.lyrics_body;
      for (const e of analysis.explicitness.explicit_expressions) for (const m of e.matches) t.equal(body.slice(m.start_char, m.end_char), e.expression);
      t.equal(analysis.moderation.needs_moderation, true, 'explicit lyrics need moderation');
    }
  }
  t.ok(explicit > 0, `${explicit} explicit songs checked`);
});
