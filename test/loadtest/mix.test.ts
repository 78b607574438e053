/** `--mix`: parsing, its errors, and draws in the mix's proportions. */
import t from 'tap';
import { Rng } from '../../src/generate/prng.js';
import { DEFAULT_MIX, mixText, MixPicker, parseMix } from '../../src/loadtest/mix.js';
import { isError } from '../../src/errors.js';

t.test('the default mix and aliases', async (t) => {
  t.same(parseMix(DEFAULT_MIX), [
    { method: 'fingerprint', weight: 40 },
    { method: 'track.get', weight: 30 },
    { method: 'track.search', weight: 20 },
    { method: 'matcher.track.get', weight: 10 },
  ]);
  t.same(parseMix(' track.lyrics.fingerprint.post = 1 , Track.Get=3'), [
    { method: 'fingerprint', weight: 1 },
    { method: 'track.get', weight: 3 },
  ], 'the API name of a method, spaces and case');
  t.same(parseMix('track.get=2,artist.get=0,album.get=0.5'), [
    { method: 'track.get', weight: 2 },
    { method: 'album.get', weight: 0.5 },
  ], 'weight 0 leaves a method out; fractions are weights too');
  t.equal(mixText(parseMix('track.get=1,track.search=3')), 'track.get=25,track.search=75', 'shares in percent');
});

t.test('a bad mix is a usage error naming the part at fault', async (t) => {
  const cases: [string, RegExp][] = [
    ['track.get', /"track.get" is not method=weight/],
    ['track.get=abc', /not method=weight/],
    ['track.get=-1', /not method=weight/],
    ['track.dance=3', /unknown method "track.dance"; one of fingerprint, track.get/],
    ['track.get=1,track.get=2', /track.get is given twice/],
    ['track.get=0', /no method with a weight above 0/],
    ['', /no method with a weight above 0/],
  ];
  for (const [mix, hint] of cases) {
    try {
      parseMix(mix);
      t.fail(`${mix} accepted`);
    } catch (e) {
      t.ok(isError(e, 'usage'), `${mix}: usage error`);
      t.match((e as Error).message + (e as { hint?: string }).hint, hint, mix);
    }
  }
});

t.test('methods are drawn in proportion to their weights', async (t) => {
  const picker = new MixPicker(parseMix(DEFAULT_MIX), new Rng(3));
  const counts = new Map<string, number>();
  const draws = 100_000;
  for (let i = 0; i < draws; i++) {
    const m = picker.next();
    counts.set(m, (counts.get(m) ?? 0) + 1);
  }
  for (const [method, share] of [['fingerprint', 0.4], ['track.get', 0.3], ['track.search', 0.2], ['matcher.track.get', 0.1]] as const) {
    t.ok(Math.abs((counts.get(method) ?? 0) / draws - share) < 0.01, `${method}: ${counts.get(method)} of ${draws}`);
  }
});
