/** Verification of a fingerprint candidate: which characters of the query a lyric accounts for, and its longest passage. */
import t from 'tap';
import { testKernels } from '../../helpers/kernels.js';
import { normalizeText } from '../../../src/index/kernel/normalize.js';

const LYRIC = normalizeText(`Somewhere between the desert and the sea
I lost the letters that you wrote to me
Take me back to Tokyo, the midnight train is calling
Hold on to the song, hold on to me`);

// Each kernel: the TypeScript reference and the native one give these answers alike.
for (const { name, kernel } of testKernels()) {
  t.test(`${name} kernel`, async (t) => {
    t.test('queries compared in turn share the lyric side of a comparison, and answer as each alone', async (t) => {
      // A lyric longer than the shared buffers' first size (4,096), then shorter ones, in turn.
      const long = `${LYRIC} `.repeat(40);
      const lyrics = [LYRIC, long, LYRIC.slice(40), long.slice(900, 5000), LYRIC.slice(0, 90)];
      const texts = [LYRIC.slice(0, 120), LYRIC.slice(30, 90), `${LYRIC.slice(10, 60)} hold on to me`];
      const alone = texts.map((q) => lyrics.map((l) => kernel.queryGrams(q).coverage(l)));
      const prepared = texts.map((q) => kernel.queryGrams(q));
      const inTurn = texts.map(() => lyrics.map(() => ({ covered: -1, longest: -1 })));
      for (let round = 0; round < 2; round++) {
        lyrics.forEach((l, j) => prepared.forEach((g, i) => (inTurn[i][j] = g.coverage(l))));
      }
      t.same(inTurn, alone);
      t.ok(alone.every((row) => row.some((c) => c.covered > 0)), 'each text accounted for somewhere');
    });

    t.test('coverage: a passage is fully accounted for, typos cost about their own characters', async (t) => {
      const excerpt = LYRIC.slice(0, 120);
      const exact = kernel.queryGrams(excerpt).coverage(LYRIC);
      t.equal(exact.covered, excerpt.length);
      t.equal(exact.longest, excerpt.length);

      const typos = excerpt.slice(0, 30) + 'x' + excerpt.slice(31, 70) + 'q' + excerpt.slice(71);
      const noisy = kernel.queryGrams(typos).coverage(LYRIC);
      t.ok(noisy.covered >= excerpt.length - 6 && noisy.covered < excerpt.length, `covered ${noisy.covered} of ${excerpt.length}`);

      const unrelated = normalizeText('The committee will consider the budget of the city for the next fiscal year in the spring session.');
      const none = kernel.queryGrams(unrelated).coverage(LYRIC);
      t.ok(none.covered / unrelated.length < 0.15, `unrelated prose covers ${none.covered} of ${unrelated.length}`);

      const embedded = `${unrelated} ${excerpt} ${unrelated}`;
      const part = kernel.queryGrams(embedded).coverage(LYRIC);
      t.ok(part.covered >= excerpt.length - 2 && part.covered <= excerpt.length + 10, 'an embedded passage is found, and only it');
      t.ok(part.longest >= excerpt.length - 2);
    });

    t.test('the longest passage follows the lyric: pieces found in different places are not one passage', async (t) => {
      const query = normalizeText('the quick brown fox jumps over the lazy dog');
      const stitched = kernel.queryGrams(query).coverage(normalizeText('the quick brown fox jumps high and then, much later, a fox jumps over the lazy dog'));
      t.equal(stitched.covered, query.length, 'every character is in the lyric');
      t.ok(stitched.longest >= 20 && stitched.longest <= ' fox jumps over the lazy dog'.length, `the longest piece (${stitched.longest}), not the two stitched together`);
      const whole = kernel.queryGrams(query).coverage(normalizeText(`a song where ${query} at once`));
      t.same(whole, { covered: query.length, longest: query.length });
    });

    t.test('overlapping runs are counted once', async (t) => {
      const q = kernel.queryGrams('hold on to me hold on to me hold on to me');
      const r = q.coverage('hold on to me');
      t.ok(r.covered <= 'hold on to me hold on to me hold on to me'.length);
      t.equal(kernel.queryGrams('').coverage(LYRIC).covered, 0);
    });

    t.test('an exact passage is one run, whatever occurrences of its grams precede it in the lyric', async (t) => {
      // The query's first grams ("end i", "nd is") occur earlier, in another context: matching must
      // not start there and drop the first characters when the lyric goes on differently.
      const lyric = normalizeText(`The end is where we start, they said
    and the end is never near
    So we drove through the night with the windows down
    and at the end i found my way back home to you
    where the river bends`);
      for (const query of ['end i found my way back home to you', 'the end i found my way back home to you where the river', 'end is never near so we drove through the night']) {
        t.same(kernel.queryGrams(query).coverage(lyric), { covered: query.length, longest: query.length }, query);
      }
    });

    t.test('a repeated chorus does not split the passage that continues it', async (t) => {
      const chorus = 'Hold on to the song, hold on to me';
      const lyric = normalizeText(`${chorus}
    we walked along the shore until the morning came
    ${chorus}
    the lights went out across the bay
    ${chorus} tonight the river runs so deep
    and carries us away`);
      const query = normalizeText(`${chorus} tonight the river runs so deep`);
      t.same(kernel.queryGrams(query).coverage(lyric), { covered: query.length, longest: query.length }, 'the third chorus and what follows it, as one passage');
      const across = normalizeText(`the lights went out across the bay ${chorus} tonight`);
      t.same(kernel.queryGrams(across).coverage(lyric), { covered: across.length, longest: across.length }, 'a passage spanning a chorus between two others');
      // The same characters from pieces in different places are still not one passage.
      const stitched = normalizeText(`${chorus} we walked along the shore tonight the river runs`);
      const r = kernel.queryGrams(stitched).coverage(lyric);
      t.equal(r.covered, stitched.length);
      t.ok(r.longest < stitched.length - 10, `longest ${r.longest} of ${stitched.length}: the first two lines, not the stitched third`);
    });

    t.test('texts that repeat themselves: a query holding its chorus twice, and "na na na" against "na na na"', async (t) => {
      const chorus = 'hold on to the song hold on to me';
      const lyric = normalizeText(`we walked along the shore\n${chorus}\n${chorus}\n${chorus}\nand carries us away`);
      const twice = `${chorus} ${chorus}`;
      t.same(kernel.queryGrams(twice).coverage(lyric), { covered: twice.length, longest: twice.length });
      const last = `${chorus} and carries us away`;
      t.same(kernel.queryGrams(last).coverage(lyric), { covered: last.length, longest: last.length }, 'the last of three choruses and what follows it');

      // Occurrences in the product of the lengths: past STEPS_PER_GRAM grams compared per gram, runs
      // start at their gram's first occurrence (the lyric's "na na" is longer than the query's).
      const na = 'na '.repeat(100).trim();
      const song = normalizeText(`hey jude ${'na '.repeat(300)}hey jude`);
      t.same(kernel.queryGrams(na).coverage(song), { covered: na.length, longest: na.length });
      const mixed = normalizeText(`better better better ${na.slice(0, 60)} hey jude`);
      const r = kernel.queryGrams(mixed).coverage(song);
      t.equal(r.covered, mixed.length - 'better better better'.length);
      // (Its 300 "na"s are not all tried: the "na na" may be found at one before the last, which "hey jude" follows.)
      t.ok(r.longest >= ' na na'.length + na.slice(6, 60).length, `longest ${r.longest}: at least the "na na"`);
    });

    t.test('a lyric passage accounts for one stretch of the query: a phrase the query repeats and the lyric holds once counts once', async (t) => {
      t.same(kernel.queryGrams('hold on to me hold on to me hold on to me').coverage('hold on to me'), { covered: 'hold on to me'.length, longest: 'hold on to me'.length });
      // Held twice, apart, in both: both count (the second is moved to the lyric's second one).
      const lyric = normalizeText('the chorus line is here tonight\nsomething else entirely in the verse\nthe chorus line is here again');
      const query = normalizeText('the chorus line is here and then the chorus line is here');
      const r = kernel.queryGrams(query).coverage(lyric);
      t.equal(r.covered, query.length - ' and then'.length + 1, `covered ${r.covered} of ${query.length}: both, less the words between`);
    });

    t.test('prose sharing everyday words with a lyric: no chance neighbours from choosing among their occurrences', async (t) => {
      // A README paragraph against an unrelated text of the 1M quality catalog (a fortune), which the
      // bench's screening flagged at 53% when short runs of common words started wherever the lyric
      // went on longest ("every" … "in the" in "every vendor in the world" lie on nearby diagonals).
      const paragraph = normalizeText('We welcome contributions from everyone in the community. Read below for a detailed contribution guide.');
      const fortune = normalizeText(`On the other hand, the TCP camp also has a phrase for OSI people.
    There are lots of phrases.  My favorite is \`nitwit' -- and the rationale
    is the Internet philosophy has always been you have extremely bright,
    non-partisan researchers look at a topic, do world-class research, do
    several competing implementations, have a bake-off, determine what works
    best, write it down and make that the standard.
    The OSI view is entirely opposite.  You take written contributions
    from a much larger community, you put the contributions in a room of
    committee people with, quite honestly, vast political differences and all
    with their own political axes to grind, and four years later you get
    something out, usually without it ever having been implemented once.
    So the Internet perspective is implement it, make it work well,
    then write it down, whereas the OSI perspective is to agree on it, write
    it down, circulate it a lot and now we'll see if anyone can implement it
    after it's an international standard and every vendor in the world is
    committed to it.  One of those processes is backwards, and I don't think
    it takes a Lucasian professor of physics at Oxford to figure out which.`);
      const r = kernel.queryGrams(paragraph).coverage(fortune);
      t.ok(r.covered / paragraph.length < 0.45, `covered ${r.covered} of ${paragraph.length}`);
      t.equal(r.longest, ' contributions '.length + 1, 'its longest passage is one word and its spaces');
    });
  });
}
