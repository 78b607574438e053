import t from 'tap';
import { analyse, findMatches } from '../../src/generate/analysis.js';
import { writeSong } from '../../src/generate/lyrics.js';
import { Rng } from '../../src/generate/prng.js';
import { it } from '../../src/generate/words/it.js';

t.test('entity matches are whole words at their offsets', async (t) => {
  const text = 'Roma\nRomantic Roma, roma\nto Roma';
  const matches = findMatches(text, 'Roma');
  t.same(matches.map((m) => m.start_char), [0, 14, 28]);
  t.ok(matches.every((m) => text.slice(m.start_char, m.end_char) === 'Roma'));
  t.same(findMatches('nothing here', 'Roma'), []);
});

t.test('the analysis of an Italian song describes that song', async (t) => {
  const song = writeSong(new Rng(11), it, { explicit: true, faith: true });
  const lens = analyse(new Rng(12), song) as Record<string, any>;
  t.equal(lens.language_detection.languages[0].language_iso_code_1, 'it');
  t.equal(lens.language_detection.languages[0].language_iso_code_3, 'ita');
  const god = lens.entities.entity_list.find((e: any) => e.entity_name === 'God');
  t.ok(god, 'Dio is recognised as God');
  t.equal(song.body.slice(god.matches[0].start_char, god.matches[0].end_char), 'Dio');
  t.equal(lens.religion.has_references, true);
  t.equal(lens.moderation.needs_moderation, true);
  const present = lens.moderation.categories.filter((c: any) => c.is_present).map((c: any) => c.category);
  t.same(present.sort(), [...song.categories].sort());
  const lines = song.body.split('\n');
  t.ok(lens.themes.main_themes[0].quotes.every((q: string) => lines.includes(q)));
});
