import t from 'tap';
import { titleFromHook, writeSong } from '../../src/generate/lyrics.js';
import { Rng } from '../../src/generate/prng.js';
import { ENGLISH } from '../../src/generate/words/index.js';
import { es } from '../../src/generate/words/es.js';

t.test('a song has verses and a chorus sung at least twice, sections split by a blank line', async (t) => {
  for (let seed = 0; seed < 100; seed++) {
    const song = writeSong(new Rng(seed), ENGLISH, { explicit: false, faith: false });
    const kinds = song.sections.map((s) => s.kind);
    if (kinds.filter((k) => k === 'chorus').length < 2 || kinds.filter((k) => k === 'verse').length < 2) t.fail(`seed ${seed}: ${kinds}`);
    if (song.body !== song.sections.map((s) => s.lines.join('\n')).join('\n\n')) t.fail('body layout');
    if (song.sections.some((s) => s.lines.some((l) => l === '' || l.includes('\n') || /\{/.test(l)))) t.fail('empty or unfilled line');
    if (song.categories.length !== 0) t.fail('a clean song has no moderation categories');
  }
  t.pass('checked 100 songs');
});

t.test('the same generator state writes the same song', async (t) => {
  const a = writeSong(new Rng(5), es, { explicit: true, faith: true });
  const b = writeSong(new Rng(5), es, { explicit: true, faith: true });
  t.equal(a.body, b.body);
  t.equal(a.lang.code, 'es');
});

t.test('explicit and faith lines are sung and reported', async (t) => {
  for (let seed = 0; seed < 50; seed++) {
    const song = writeSong(new Rng(seed), ENGLISH, { explicit: true, faith: true });
    const lines = song.body.split('\n');
    t.ok(song.categories.length > 0, 'an explicit song triggers a category');
    t.ok(song.themeLines.every((l) => lines.includes(l)), 'theme lines are sung');
    t.ok(ENGLISH.faith.some((l) => lines.includes(l)), 'the faith line survives');
    t.equal(song.theme.name, 'Faith');
  }
});

t.test('titles come from the hook', async (t) => {
  t.equal(titleFromHook('Oh, golden river', ENGLISH), 'Golden River');
  t.equal(titleFromHook("Don't stop, don't stop", ENGLISH), "Don't Stop");
  t.equal(titleFromHook('Meet me in Paris', ENGLISH), 'Meet Me In Paris');
  t.equal(titleFromHook('Noche en Madrid', es), 'Noche en Madrid');
});
