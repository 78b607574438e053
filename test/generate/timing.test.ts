import t from 'tap';
import type { Section } from '../../src/generate/lyrics.js';
import { Rng } from '../../src/generate/prng.js';
import { lrcBody, lrcTime, minTrackLength, richsyncBody, timeLines } from '../../src/generate/timing.js';
import { parseLrc } from './fixtures/catalog.js';

const sections: Section[] = [
  { kind: 'verse', lines: ['I see the fire in your eyes', 'We drove all night to Paris'] },
  { kind: 'chorus', lines: ['Oh, golden river', 'Take my hand', 'Oh, golden river'] },
  { kind: 'verse', lines: ['Every time I dance, I think of you'] },
];

t.test('LRC times are written [mm:ss.xx]', async (t) => {
  t.equal(lrcTime(0), '[00:00.00]');
  t.equal(lrcTime(8345), '[01:23.45]');
  t.equal(lrcTime(41999), '[06:59.99]');
});

t.test('lines start after an intro, increase and end before the track', async (t) => {
  for (let seed = 0; seed < 200; seed++) {
    const length = 90 + (seed % 300);
    const lines = timeLines(new Rng(seed), sections, length);
    t.equal(lines.length, 6);
    if (lines[0].tsCs < 300) t.fail('no intro');
    lines.forEach((l, i) => {
      if (l.sungCs < 200 || l.teCs < l.tsCs + l.sungCs) t.fail(`line ${i} too short`);
      if (i > 0 && lines[i - 1].teCs !== l.tsCs) t.fail('te is not the next start');
    });
    if (lines[5].teCs >= length * 100) t.fail('runs past the track');
  }
  t.same(parseLrc(lrcBody(timeLines(new Rng(1), sections, 200))).map((l) => l.text), sections.flatMap((s) => s.lines));
});

t.test('a dense song still fits the shortest length it asks for', async (t) => {
  const dense: Section[] = Array.from({ length: 8 }, () => ({ kind: 'verse' as const, lines: Array.from({ length: 10 }, () => 'A rather long line of lyrics with eleven words in it now') }));
  const length = minTrackLength(80, 8);
  const lines = timeLines(new Rng(4), dense, length);
  t.ok(lines[lines.length - 1].teCs < length * 100);
  t.ok(lines.every((l) => l.sungCs >= 200));
});

t.test('richsync follows the timed lines word by word', async (t) => {
  const lines = timeLines(new Rng(2), sections, 180);
  const body = JSON.parse(richsyncBody(new Rng(3), lines));
  t.equal(body.length, lines.length);
  body.forEach((line: { ts: number; te: number; l: Array<{ c: string; o: number }>; x: string }, i: number) => {
    t.equal(line.ts, lines[i].tsCs / 100);
    t.equal(line.te, lines[i].teCs / 100);
    t.equal(line.x, lines[i].text);
    t.equal(line.l.map((g) => g.c).join(''), line.x);
    t.ok(line.l.every((g, k) => k === 0 ? g.o === 0 : g.o > line.l[k - 1].o));
    t.ok(line.l[line.l.length - 1].o < lines[i].sungCs / 100);
  });
});
