/** Verification of a fingerprint candidate: which characters of the query a lyric accounts for, and its longest passage. */
import t from 'tap';
import { QueryGrams } from '../../../src/index/kernel/coverage.js';
import { normalizeText } from '../../../src/index/kernel/normalize.js';

const LYRIC = normalizeText(`Somewhere between the desert and the sea
I lost the letters that you wrote to me
Take me back to Tokyo, the midnight train is calling
Hold on to the song, hold on to me`);

t.test('coverage: a passage is fully accounted for, typos cost about their own characters', async (t) => {
  const excerpt = LYRIC.slice(0, 120);
  const exact = new QueryGrams(excerpt).coverage(LYRIC);
  t.equal(exact.covered, excerpt.length);
  t.equal(exact.longest, excerpt.length);

  const typos = excerpt.slice(0, 30) + 'x' + excerpt.slice(31, 70) + 'q' + excerpt.slice(71);
  const noisy = new QueryGrams(typos).coverage(LYRIC);
  t.ok(noisy.covered >= excerpt.length - 6 && noisy.covered < excerpt.length, `covered ${noisy.covered} of ${excerpt.length}`);

  const unrelated = normalizeText('The committee will consider the budget of the city for the next fiscal year in the spring session.');
  const none = new QueryGrams(unrelated).coverage(LYRIC);
  t.ok(none.covered / unrelated.length < 0.15, `unrelated prose covers ${none.covered} of ${unrelated.length}`);

  const embedded = `${unrelated} ${excerpt} ${unrelated}`;
  const part = new QueryGrams(embedded).coverage(LYRIC);
  t.ok(part.covered >= excerpt.length - 2 && part.covered <= excerpt.length + 10, 'an embedded passage is found, and only it');
  t.ok(part.longest >= excerpt.length - 2);
});

t.test('the longest passage follows the lyric: pieces found in different places are not one passage', async (t) => {
  const query = normalizeText('the quick brown fox jumps over the lazy dog');
  const stitched = new QueryGrams(query).coverage(normalizeText('the quick brown fox jumps high and then, much later, a fox jumps over the lazy dog'));
  t.equal(stitched.covered, query.length, 'every character is in the lyric');
  t.ok(stitched.longest >= 20 && stitched.longest <= 'the quick brown fox jumps '.length, `the longest piece (${stitched.longest}), not the two stitched together`);
  const whole = new QueryGrams(query).coverage(normalizeText(`a song where ${query} at once`));
  t.same(whole, { covered: query.length, longest: query.length });
});

t.test('overlapping runs are counted once', async (t) => {
  const q = new QueryGrams('hold on to me hold on to me hold on to me');
  const r = q.coverage('hold on to me');
  t.ok(r.covered <= 'hold on to me hold on to me hold on to me'.length);
  t.equal(new QueryGrams('').coverage(LYRIC).covered, 0);
});
