/** The fingerprint search's pure steps: refining candidates with unread keys, ranking and sharing evidence among hits. */
import t from 'tap';
import { rank, shareEvidence, TIE_WINDOW, type FingerprintHit } from '../../../src/index/fingerprint/search.js';
import { refine, type Candidate } from '../../../src/index/kernel/votes.js';
import { holdingEvery } from '../../../src/index/kernel/posting-ops.js';
import { PackedList } from '../../../src/index/store/packed.js';

t.test('refine: the unread keys lift the lyric that holds them all, and the earlier best stay', async (t) => {
  const first: Candidate[] = [
    { doc: 10, vote: 30 },
    { doc: 4, vote: 29 },
    { doc: 7, vote: 20 },
    { doc: 2, vote: 20 },
  ];
  // Two long lists left unread; doc 7 is in both, doc 2 in one.
  const unread = [PackedList.of([1, 2, 3, 7, 9, 11, 12]), PackedList.of([5, 7, 8, 13])];
  const chosen = refine(first, unread, 2, () => 6);
  t.same(
    chosen.map((c) => [c.doc, c.vote]),
    [
      [7, 32],
      [10, 30],
      [4, 29],
    ],
    'doc 7 rises to the top; doc 4, second before, is still verified',
  );
  t.same(first[2], { doc: 7, vote: 20 }, 'the input is not changed');
  t.same(
    refine(first, [], 3, () => 6).map((c) => c.doc),
    [10, 4, 2, 7],
    'nothing unread: the best by vote (ties by lower doc), then doc 7, third before',
  );
});

t.test('rank: by similarity, and within TIE_WINDOW of the best by longest passage', async (t) => {
  // A 200-character text: covered = 2 × similarity.
  const hit = (track: number, similarity: number, longest: number, length = 200): FingerprintHit =>
    ({ track, commontrack: track, similarity, covered: Math.round((similarity * length) / 100), longest, tracks: [] });
  const ranked = rank([hit(1, 67.2, 36), hit(2, 66.2, 47), hit(3, 80, 20), hit(4, 79, 60), hit(5, 40, 200)]);
  t.same(
    ranked.map((h) => h.track),
    [4, 3, 1, 2, 5],
    '79 with a 60-character passage before 80 with 20; beyond the window by similarity',
  );
  t.equal(TIE_WINDOW, 2);
  const line = rank([hit(1, 100, 25, 50), hit(2, 92, 46, 50), hit(3, 80, 40, 50)]);
  t.same(line.map((h) => h.track), [2, 1, 3], 'a 50-character text: 4 characters fewer but one 46-character passage beats pieces of 25');
  t.same(rank([]), []);
});

t.test('shareEvidence: an answer shares its similarity with those accounting for the query at least as well', async (t) => {
  const hit = (track: number, similarity: number, covered: number, longest: number): FingerprintHit => ({ track, commontrack: track, similarity, covered, longest, tracks: [] });
  const similarities = (hits: FingerprintHit[]) => shareEvidence(hits).map((h) => Math.round(h.similarity * 100) / 100);
  t.same(similarities([hit(1, 100, 40, 40), hit(2, 100, 40, 40), hit(3, 100, 40, 40), hit(4, 100, 40, 40)]), [25, 25, 25, 25], 'four songs with the whole line: a quarter each');
  t.same(similarities([hit(1, 100, 40, 40)]), [100], 'a line one song holds keeps 100');
  t.same(similarities([hit(1, 100, 100, 100), hit(2, 100, 100, 100), hit(3, 94, 94, 94), hit(4, 50, 50, 200)]), [50, 50, 31.33, 50],
    'behind two whole matches, a 94 shares with three; a long passage no one else has keeps its share');
  t.same(similarities([hit(1, 90, 36, 30), hit(2, 90, 36, 20)]), [90, 45], 'the same share, but one has the longer passage');
});

t.test('holdingEvery: the documents in every list, in order', async (t) => {
  const lists = [PackedList.of([2, 3, 5, 8, 13, 21, 34]), PackedList.of([1, 2, 3, 4, 5, 13, 34, 55])];
  t.same(holdingEvery([2, 3, 4, 8, 13, 34, 40], lists), [2, 3, 13, 34]);
  t.same(holdingEvery([2, 3], []), [2, 3], 'no list: every document');
  t.same(holdingEvery([], lists), []);
  t.same(holdingEvery([1, 55], lists), [], 'each in one list only');
});
