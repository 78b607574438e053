import t from 'tap';
import { isrcPattern } from '../../src/catalog/schema.js';
import { MAX_TRACKS, isrcFor, itunesId, mbid, spotifyId } from '../../src/generate/ids.js';
import { Rng } from '../../src/generate/prng.js';

t.test('ISRCs are well-formed and never repeat', async (t) => {
  const seen = new Set<string>();
  let bad = 0;
  for (let n = 1; n <= 300_000; n++) {
    // Country and year vary per track; uniqueness must not depend on them.
    const code = isrcFor(n, 123_456_789, n % 2 ? 'US' : 'GB', 1990 + (n % 30));
    if (!isrcPattern.test(code)) bad++;
    seen.add(code.slice(2, 5) + code.slice(7));
  }
  t.equal(bad, 0);
  t.equal(seen.size, 300_000, 'registrant + designation alone are unique');
  t.ok(isrcPattern.test(isrcFor(MAX_TRACKS, 4_294_967_295, 'SE', 2025)), 'exact at the largest catalog');
  t.equal(isrcFor(1, 0, 'US', 2007).slice(5, 7), '07');
});

t.test('store, streaming and MusicBrainz ids have their shapes', async (t) => {
  const rng = new Rng(3);
  for (let i = 0; i < 1000; i++) {
    t.match(spotifyId(rng), /^[0-9A-Za-z]{22}$/);
    t.match(itunesId(rng), /^\d{9,10}$/);
    t.match(mbid(rng), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
});
