import t from 'tap';
import { parseLrc, toDfxp, toMxm } from '../../src/api/subtitle-format.js';

t.test('parseLrc reads timed lines and skips tags and untimed lines', async (t) => {
  const lines = parseLrc('[ar:Someone]\n[00:01.5] one\n\nno time\n[01:02.345]two  \r\n[10:00:12]three');
  t.same(lines, [
    { time: 1.5, text: 'one' },
    { time: 62.35, text: 'two' },
    { time: 600.12, text: 'three' },
  ]);
});

t.test('toMxm splits time into minutes, seconds and hundredths', async (t) => {
  t.same(JSON.parse(toMxm([{ time: 17.33, text: 'You make me feel alive' }])), [
    { text: 'You make me feel alive', time: { total: 17.33, minutes: 0, seconds: 17, hundredths: 33 } },
  ]);
  t.same(JSON.parse(toMxm([{ time: 125.07, text: '' }]))[0].time, { total: 125.07, minutes: 2, seconds: 5, hundredths: 7 });
});

t.test('toDfxp escapes text and ends each line at the next', async (t) => {
  const xml = toDfxp([{ time: 1, text: 'a < b & "c"' }, { time: 3723.5, text: 'end' }], 'en', 3725);
  t.match(xml, /<p begin="00:00:01.00" end="01:02:03.50">a &lt; b &amp; &quot;c&quot;<\/p>/);
  t.match(xml, /<p begin="01:02:03.50" end="01:02:07.50">end<\/p>/, 'the last line lasts 4 s when the length is shorter');
});
