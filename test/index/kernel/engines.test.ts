/**
 * The native kernel against the TypeScript reference (issue 17): the same ranked answers and
 * similarities for the kinds of text bench/quality screens (exact excerpts of 50–400 characters,
 * character noise, replaced words, one line, an excerpt inside prose), for random and adversarial
 * texts (empty, huge repetition, every Unicode plane), the same candidate stage and verification
 * taken apart; and no corrupt index segment makes the native one read outside its memory: it is
 * refused at load with an error naming what is wrong.
 */
import t from 'tap';
import { Catalog } from '../../../src/catalog/store.js';
import { generateCatalog } from '../../../src/generate/index.js';
import { column, currentGeneration, loadGenerationAsync } from '../../../src/index/store/layout.js';
import { packedShards } from '../../../src/index/store/postings.js';
import { PackedList } from '../../../src/index/store/packed.js';
import { FingerprintSearcher } from '../../../src/index/fingerprint/search.js';
import { makeEngines } from '../../../src/index/service/engines.js';
import { ORDER_WORDS, orderMask, tsKernel, type Kernel } from '../../../src/index/kernel/kernel.js';
import { nativeAddon, type NativeShard } from '../../../src/util/native.js';
import { TextIndex } from '../../../src/index/text/text-index.js';
import { TextSearcher, type TrackQuery } from '../../../src/index/text/search.js';
import { FIELD, packLanguage } from '../../../src/index/text/terms.js';
import type { Clause } from '../../../src/index/kernel/kernel.js';
import { indexedDataDir } from '../../helpers/indexed.js';
import { nativeKernel } from '../../helpers/kernels.js';

const native = nativeKernel();
const skip = native ? false : 'REFRAIN_NATIVE=0: no native kernel to compare';

/** A deterministic random source (xorshift). */
function rng(seed: number): { next(): number; int(n: number): number } {
  let x = seed | 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
  return { next, int: (n) => Math.floor(next() * n) };
}

/** Texts of every kind the endpoint screens, made from the catalog's lyrics. */
function queries(bodies: string[], count: number): string[] {
  const r = rng(17);
  const excerpt = (body: string, n: number) => {
    const from = r.int(Math.max(1, body.length - n));
    return body.slice(from, from + n);
  };
  const noisy = (text: string, percent: number) =>
    [...text].map((c) => (r.int(100) < percent ? String.fromCharCode(97 + r.int(26)) : c)).join('');
  const words = bodies.join(' ').split(/\s+/).filter(Boolean);
  const replaced = (text: string, percent: number) =>
    text.split(' ').map((w) => (r.int(100) < percent ? words[r.int(words.length)] : w)).join(' ');
  const prose = () => Array.from({ length: 40 }, () => words[r.int(words.length)]).join(' ');
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = bodies[r.int(bodies.length)];
    const lines = body.split('\n').filter((l) => l.split(' ').length >= 4);
    out.push(
      excerpt(body, 50),
      excerpt(body, 100),
      excerpt(body, 200),
      excerpt(body, 400),
      noisy(excerpt(body, 200), 5),
      noisy(excerpt(body, 200), 20),
      replaced(excerpt(body, 200), 30),
      lines.length > 0 ? lines[r.int(lines.length)] : excerpt(body, 30),
      `${prose()} ${excerpt(body, 200)} ${prose()}`,
      prose(),
    );
  }
  return out;
}

/** Texts made to break things: nothing, one character, a chorus repeated thousands of times, every plane of Unicode. */
function adversarial(bodies: string[]): string[] {
  const r = rng(29);
  const planes = Array.from({ length: 17 }, (_, plane) =>
    Array.from({ length: 300 }, () => String.fromCodePoint(Math.min(0x10ffff, plane * 0x10000 + r.int(0x10000)))).join(''),
  ).map((s) => s.replace(/[\uD800-\uDFFF]/g, (c) => (r.int(2) ? c : 'x')));
  const units = Array.from({ length: 2000 }, () => String.fromCharCode(r.int(0x10000))).join('');
  const chorus = bodies[0].split('\n')[0];
  return [
    '', 'a', 'na ', 'na na na na na', '     ', '\n\n\n', '!!!???...',
    'na '.repeat(20_000), `${chorus}\n`.repeat(300), 'a'.repeat(50_000), 'ab'.repeat(10_000),
    ...planes, units, bodies[1].toUpperCase(), bodies[2].split('').reverse().join(''),
    '東京の夜は長い 東京の夜は長い 東京の夜は長い', 'สวัสดีครับ ผมชื่อ สวัสดีครับ', 'ﾊﾟﾊﾟﾊﾟ ﾊﾟﾊﾟﾊﾟ',
    `${bodies[3]}\u0301\u0301\u0301${bodies[4]}`, bodies.slice(0, 6).join('\n'),
  ];
}

t.test('the native and the TypeScript kernel: the same answers', { skip }, async (t) => {
  const lines = [...generateCatalog({ tracks: 2500, seed: 5 }).lines];
  const data = await indexedDataDir(t, lines);
  const catalog = Catalog.open(data);
  t.teardown(() => catalog.close());
  const index = await loadGenerationAsync(currentGeneration(data)!);
  const normalized = new Map<number, string>();
  const lyricsOf = (id: number) => {
    if (!normalized.has(id)) {
      const body = catalog.getContent('lyrics', id)?.lyrics_body;
      if (body === undefined) return undefined;
      normalized.set(id, tsKernel.normalizeText(body));
    }
    return normalized.get(id);
  };
  const bodies: string[] = [];
  for (const line of lines) {
    const record = JSON.parse(line) as { type: string; lyrics?: { lyrics_body?: string } };
    if (record.type === 'track' && record.lyrics?.lyrics_body) bodies.push(record.lyrics.lyrics_body);
  }
  const engines = (kernel: Kernel) => makeEngines(index, catalog, { lyricsOf }, kernel).fingerprint;
  const ts = engines(tsKernel);
  const nat = engines(native!);

  await t.test('every kind of screened text, and adversarial ones', async (t) => {
    const texts = [...queries(bodies, 60), ...adversarial(bodies)];
    let differing = 0;
    let found = 0;
    for (const [i, text] of texts.entries()) {
      for (const size of i % 7 === 0 ? [1, 10, 100] : [10]) {
        const a = ts.search(text, size, Infinity);
        const b = nat.search(text, size, Infinity);
        if (JSON.stringify(a) !== JSON.stringify(b)) {
          differing++;
          if (differing <= 3) t.same(b, a, `text ${i} (${text.length} characters), size ${size}`);
        }
        if (a.length > 0) found++;
      }
    }
    t.equal(differing, 0, `${texts.length} texts: identical ranked lists and similarities`);
    t.ok(found > texts.length / 2, `most texts found something (${found}): the comparison compared answers`);
  });

  await t.test('normalisation: the same text from both, whichever path it takes', async (t) => {
    const r = rng(31);
    // Latin letters with and without marks, ligatures, apostrophes of every kind, separators, and
    // characters past the table (Greek, Cyrillic, CJK, emoji, lone surrogates).
    const alphabet = [...'aZ09 \n\t.,;!?-ÀéßæŒøĳǄǅǆﬁ\'’ʼ`´ŉſ\u0301\u00a0\u2028Ωжあ中😀\ud800\udc00ǰ'];
    const texts = [
      ...bodies.slice(0, 300),
      ...adversarial(bodies),
      ...Array.from({ length: 2000 }, () => Array.from({ length: r.int(60) }, () => alphabet[r.int(alphabet.length)]).join('')),
      ...Array.from({ length: 0x250 }, (_, c) => `a${String.fromCharCode(c)}b ${String.fromCharCode(c)}`),
      '', ' ', '’', '  x  ', 'ǆ'.repeat(5000),
    ];
    let differing = 0;
    for (const text of texts) {
      const a = tsKernel.normalizeText(text);
      const b = native!.normalizeText(text);
      if (a !== b && ++differing <= 3) t.equal(b, a, JSON.stringify(text.slice(0, 80)));
    }
    t.equal(differing, 0, `${texts.length} texts normalised alike`);
    t.not(native!.normalizeText, tsKernel.normalizeText, 'the native kernel normalises with its own folder');
    const addon = nativeAddon()!;
    t.throws(() => new addon.NarrowFolder(Int32Array.of(32, 0x100), []), /past U\+00FF/, 'a table whose output is past U+00FF is refused');
    t.throws(() => new addon.NarrowFolder(Int32Array.of(-2), []), /MULTI/, 'a MULTI character without its output is refused');
    t.equal(new addon.NarrowFolder(Int32Array.of(32, 98, -1), []).fold('\u0001\u0000\u0002\u0001'), 'b b', 'folds through the table it is given');
  });

  await t.test('the candidate stage alone, at other budgets and second-pass scales', async (t) => {
    const r = rng(5);
    const normal = queries(bodies, 20).map((q) => tsKernel.normalizeText(q));
    const limits = [undefined, { base: 30, basePerKey: 0, budget: 60, budgetPerKey: 0, cap: 90 }, { base: 1, basePerKey: 1, budget: 1, budgetPerKey: 1, cap: 1 }];
    let compared = 0;
    for (const limit of limits) {
      const a = tsKernel.candidateStage(index, limit);
      const b = native!.candidateStage(index, limit);
      for (const q of normal) {
        const count = [0, 1, 16, 40, 300][r.int(5)];
        const order = orderMask(tsKernel.wordsOf(q));
        for (const scale of [1, 8]) {
          t.same(b.candidates(q, count, scale), a.candidates(q, count, scale));
          // The tie, narrowed with the query's word order and without one.
          t.same(b.tie(order), a.tie(order));
          t.same(b.tie(), a.tie());
          compared++;
        }
      }
    }
    t.ok(compared > 0);
  });

  await t.test('verification alone: random and repetitive pairs', async (t) => {
    const r = rng(11);
    const texts = [...adversarial(bodies), ...queries(bodies, 10)].map((q) => tsKernel.normalizeText(q));
    const lyrics = [...bodies.slice(0, 40).map((b) => tsKernel.normalizeText(b)), ...texts];
    let differing = 0;
    for (const q of texts) {
      const a = tsKernel.queryGrams(q);
      const b = native!.queryGrams(q);
      t.equal(b.length, a.length);
      for (let k = 0; k < 8; k++) {
        const lyric = lyrics[r.int(lyrics.length)];
        if (JSON.stringify(a.coverage(lyric)) !== JSON.stringify(b.coverage(lyric))) differing++;
      }
    }
    t.equal(differing, 0, 'the same characters covered and longest passage');
  });

  await t.test('verification of every short length: an odd and an even count of grams', async (t) => {
    // The native kernel hashes the first and the second half of a text's grams at once; a text of
    // n characters has n - 4 grams, so these lengths give both counts, and one gram, and none.
    const text = tsKernel.normalizeText('the river knows your name and carries it to the sea');
    let differing = 0;
    for (let qLength = 4; qLength <= 14; qLength++) {
      const q = text.slice(3, 3 + qLength);
      const a = tsKernel.queryGrams(q);
      const b = native!.queryGrams(q);
      for (let lyricLength = 0; lyricLength <= 24; lyricLength++) {
        for (const from of [0, 3, 9]) {
          const lyric = text.slice(from, from + lyricLength);
          if (JSON.stringify(a.coverage(lyric)) !== JSON.stringify(b.coverage(lyric))) differing++;
        }
      }
    }
    t.equal(differing, 0, 'the same characters covered and longest passage');
  });
});

t.test('intersections and track.search\'s scoring loop (track.search, artist.search, the matcher): the same answers', { skip }, async (t) => {
  const lines = [...generateCatalog({ tracks: 1500, seed: 8 }).lines];
  const data = await indexedDataDir(t, lines);
  const catalog = Catalog.open(data);
  t.teardown(() => catalog.close());
  const index = await loadGenerationAsync(currentGeneration(data)!);
  const r = rng(23);

  await t.test('lists and arrays taken apart: every clause kind, weights bit for bit', async (t) => {
    const ix = new TextIndex(index);
    const words = [...new Set(lines.flatMap((l) => (JSON.parse(l) as { track_name?: string }).track_name?.toLowerCase().split(/\W+/) ?? []))].filter(Boolean);
    const listOf = (field: string) => ix.list(ix.trackPostings, field, words[r.int(words.length)]);
    let compared = 0;
    for (let k = 0; k < 400; k++) {
      const clauses: Clause[] = [];
      for (let c = 0, n = 1 + r.int(4); c < n; c++) {
        const kind = r.int(4);
        const list = listOf([FIELD.title, FIELD.lyrics, FIELD.artist][r.int(3)]);
        if (kind === 0) clauses.push({ docs: list, weights: r.next() * 5 });
        else if (kind === 1) clauses.push(tsKernel.union({ docs: list, weights: 1.5 }, listOf(FIELD.lyrics), r.next()));
        else if (kind === 2) clauses.push({ docs: list.array(), weights: Float32Array.from({ length: list.length }, () => r.next() * 9) });
        else if (clauses.length > 0) clauses.push({ ...clauses[r.int(clauses.length)] });
        else clauses.push({ docs: list, weights: 0 });
      }
      const a = tsKernel.intersect(clauses, Infinity);
      const b = native!.intersect(clauses, Infinity);
      t.same([...b.docs], [...a.docs]);
      t.same(typeof b.weights === 'number' ? b.weights : [...b.weights], typeof a.weights === 'number' ? a.weights : [...a.weights]);
      compared++;
    }
    t.equal(compared, 400);
    const late = (k: Kernel) => () => k.intersect([{ docs: Uint32Array.of(1, 2, 3), weights: 1 }, { docs: Uint32Array.of(2, 3), weights: 1 }], Date.now() - 1000);
    t.throws(late(tsKernel), { code: 'deadline' }, 'past the deadline: the reference throws…');
    t.throws(late(native!), { code: 'deadline' }, '…and so does the native kernel');
  });

  await t.test('holdingEvery and the words a tie\'s tracks hold: the same documents', async (t) => {
    const ix = new TextIndex(index);
    const words = [...new Set(lines.flatMap((l) => tsKernel.wordsOf(tsKernel.normalizeText((JSON.parse(l) as { lyrics?: { lyrics_body?: string } }).lyrics?.lyrics_body ?? ''))))];
    const docs = ix.track.id.length;
    let kept = 0;
    for (let k = 0; k < 300; k++) {
      const lists = Array.from({ length: r.int(5) }, () => ix.list(ix.trackPostings, FIELD.lyrics, words[r.int(words.length)]));
      const some = [...new Set(Array.from({ length: r.int(300) }, () => r.int(docs + 2)))].sort((a, b) => a - b);
      const a = tsKernel.holdingEvery(some, lists);
      t.same(native!.holdingEvery(some, lists), a);
      kept += a.length;
    }
    t.ok(kept > 300, `documents were kept (${kept}): the comparison compared some`);
    t.same(native!.holdingEvery([], [ix.list(ix.trackPostings, FIELD.lyrics, words[0])]), []);
    t.same(native!.holdingEvery([4_000_000_000, 3], []), [4_000_000_000, 3], 'no list: every document');
    t.throws(() => native!.holdingEvery([1], [{ length: 3 } as never]), /clause/, 'a list that is not a stored one is refused');
    const stored = ix.list(ix.trackPostings, FIELD.lyrics, words[0]);
    const past = new PackedList(stored.reader, stored.start, stored.length + 1_000_000);
    t.throws(() => native!.holdingEvery([docs - 1], [past]), /holdingEvery: a stored list past its blocks or data/, 'a list past its columns is refused, never read outside them');
    const ts = new TextSearcher(index, catalog, tsKernel);
    const nat = new TextSearcher(index, catalog, native!);
    for (let k = 0; k < 100; k++) {
      const tracks = Array.from({ length: r.int(200) }, () => ix.track.id[r.int(docs)] + (k % 10 === 0 ? 1 : 0));
      const some = Array.from({ length: 1 + r.int(4) }, () => words[r.int(words.length)]);
      t.same(nat.tracksHoldingWords(tracks, some), ts.tracksHoldingWords(tracks, some));
    }
  });

  await t.test('track.search, artist.search and the matcher through each kernel', async (t) => {
    const ts = new TextSearcher(index, catalog, tsKernel);
    const nat = new TextSearcher(index, catalog, native!);
    const records = lines.map((l) => JSON.parse(l) as { type: string; track_name?: string; artist_name?: string; lyrics?: { lyrics_body?: string } });
    const tracks = records.filter((x) => x.type === 'track');
    const word = (text = '') => text.split(/\s+/)[r.int(Math.max(1, text.split(/\s+/).length))] ?? '';
    let differing = 0;
    let nonEmpty = 0;
    for (let k = 0; k < 300; k++) {
      const x = tracks[r.int(tracks.length)];
      const q: TrackQuery = {
        words: [
          { q: `${word(x.track_name)} ${word(x.lyrics?.lyrics_body)}` },
          { q_track: x.track_name ?? '' },
          { q_artist: word(x.artist_name), q_lyrics: `${word(x.lyrics?.lyrics_body)} ${word(x.lyrics?.lyrics_body)}` },
          { q_track_artist: `${word(x.track_name)} ${word(x.artist_name)}` },
          { q_lyrics: word(x.lyrics?.lyrics_body) },
        ][k % 5],
        hasLyrics: k % 3 === 0 ? true : undefined,
        hasSubtitles: k % 11 === 0 ? true : undefined,
        hasAnalysis: k % 13 === 0 ? k % 2 === 0 : undefined,
        instrumental: k % 17 === 0 ? false : undefined,
        artistId: k % 19 === 0 ? (x as { artist_id?: number }).artist_id : undefined,
        genreId: k % 23 === 0 ? 14 : undefined,
        language: k % 29 === 0 ? packLanguage('en') : undefined,
        releaseMin: k % 9 === 0 ? 19900101 : undefined,
        releaseMax: k % 10 === 0 ? 20151231 : undefined,
        sortTrackRating: k % 4 === 0 ? 'desc' : k % 4 === 1 ? 'asc' : undefined,
        sortArtistRating: k % 8 === 2 ? 'asc' : undefined,
        sortReleaseDate: k % 5 === 3 ? 'desc' : k % 5 === 4 ? 'asc' : undefined,
        groupCommontrack: k % 6 === 0,
        offset: k % 7 === 0 ? 5 : 0,
        limit: k % 31 === 0 ? 100 : 10,
      };
      if (k % 37 === 0) q.words = {};
      const a = ts.tracks(q, Infinity);
      const b = nat.tracks(q, Infinity);
      if (k % 41 === 0) {
        t.throws(() => nat.tracks(q, Date.now() - 1000), { code: 'deadline' }, 'the native loop stops past the deadline…');
        t.throws(() => ts.tracks(q, Date.now() - 1000), { code: 'deadline' }, '…as the reference does');
      }
      if (JSON.stringify(a) !== JSON.stringify(b)) differing++;
      if (a.ids.length > 0) nonEmpty++;
      const artist = { name: word(x.artist_name), offset: 0, limit: 10 };
      if (JSON.stringify(ts.artists(artist, Infinity)) !== JSON.stringify(nat.artists(artist, Infinity))) differing++;
      const match = { title: x.track_name ?? '', artist: x.artist_name ?? '' };
      if (JSON.stringify(ts.match(match, Infinity)) !== JSON.stringify(nat.match(match, Infinity))) differing++;
    }
    t.equal(differing, 0, 'identical answers');
    t.ok(nonEmpty > 150, `most searches found tracks (${nonEmpty}): the comparison compared answers`);
  });
});

t.test('a corrupt fingerprint segment is refused at load, never read outside its memory', { skip }, async (t) => {
  const addon = nativeAddon()!;
  const data = await indexedDataDir(t, [...generateCatalog({ tracks: 300, seed: 3 }).lines]);
  const index = await loadGenerationAsync(currentGeneration(data)!);
  const shards = packedShards(index, 'fp') as NativeShard[];
  const docs = index.manifest.parts.fp.docs;
  const order = column(index, 'fp-docs', 'order', 'u32');
  const description = (shard: NativeShard, docCount = docs) => ({
    docs: docCount,
    bits: index.manifest.parts.fp.bucketBits,
    limits: [10_000, 250, 40_000, 1000, 160_000],
    order: order.subarray(0, Math.max(0, docCount) * ORDER_WORDS),
    shards: [shard],
  });
  const good = shards[0];
  t.doesNotThrow(() => new addon.FingerprintVotes(description(good)), 'the real shard loads');
  const copy = <T extends Uint8Array | Uint32Array>(a: T): T => a.slice() as T;
  const cases: [string, NativeShard, RegExp][] = [
    ['a block of width 3', { ...good, widths: Object.assign(copy(good.widths), { 0: 3 }) }, /width 3/],
    ['a block past the data', { ...good, starts: Object.assign(copy(good.starts), { [good.starts.length - 1]: 0xffff_fff0 }) }, /past the data/],
    ['offsets that descend', { ...good, offsets: Object.assign(copy(good.offsets), { 1: 0xffff_ffff }) }, /offsets descend/],
    ['more postings than blocks', { ...good, bases: good.bases.subarray(1) }, /block columns/],
    ['data not aligned', { ...good, data: new Uint8Array(good.data.buffer, good.data.byteOffset + 1, good.data.length - 1) }, /aligned/],
    ['a widths column of the wrong type', { ...good, widths: Uint32Array.from(good.widths) as unknown as Uint8Array }, /wrong type/],
  ];
  if (good.keys && good.directory && good.shape) {
    cases.push(
      ['keys out of order', { ...good, keys: Object.assign(copy(good.keys), { 0: good.keys[1] ?? 0, 1: 0 }) }, /keys not ascending/],
      ['a directory of the wrong length', { ...good, directory: good.directory.subarray(1) }, /directory of the wrong length/],
      ['a directory past the keys', { ...good, directory: Object.assign(copy(good.directory), { [good.directory.length - 1]: 0xffff_ffff }) }, /directory entry/],
      ['a shift past 31', { ...good, shape: Uint32Array.of(40, good.shape[1]) }, /shift/],
    );
  }
  for (const [what, shard, message] of cases) t.throws(() => new addon.FingerprintVotes(description(shard)), message, what);
  t.throws(() => new addon.FingerprintVotes({ ...description(good), docs: -1 }), /docs/, 'a negative board');
  t.throws(() => new addon.FingerprintVotes({ ...description(good), order: order.subarray(ORDER_WORDS) }), /order must hold/, 'a word-order column short of the documents');
  t.throws(() => new addon.FingerprintVotes({ ...description(good), order: undefined as never }), /order/, 'no word-order column');
  t.throws(() => new addon.FingerprintVotes(undefined as never), /description/, 'no description');

  // Postings past the board (documents the docs column does not have) are read, not counted.
  const small = new addon.FingerprintVotes(description(good, 2));
  const text = tsKernel.normalizeText([...generateCatalog({ tracks: 3, seed: 3 }).lines].join(' '));
  const [pairs] = small.candidates(text, 10, 1);
  t.ok([...pairs].every((v, i) => i % 2 === 1 || v < 2), 'only documents of the board are candidates');
  t.throws(() => small.candidates(42 as unknown as string, 10, 1), /must be a string/);
  t.throws(() => small.candidates(text, -1, 1), /count/);
  t.throws(() => small.candidates(text, 10, 0.5), /scale/);
  t.throws(() => small.tie(new Uint32Array(3)), /order must be a Uint32Array of 8/);
  t.throws(() => small.tie([1, 2] as unknown as Uint32Array), /order must be/);
  t.throws(() => small.tie(Object.assign(new Uint32Array(ORDER_WORDS + 2), { [ORDER_WORDS]: 256 })), /pair bits below 256/, 'a pair bit past the sketch');
  t.ok(small.tie(new Uint32Array(ORDER_WORDS + 2)) instanceof Uint32Array, 'an order of inner bits and two pair bits');
  t.throws(() => new addon.QueryGrams('text', new Int32Array(1)), /Int32Array of 2/);
  // An intersection's stored list is checked against its columns before a block is read.
  const clause = (patch: Partial<NativeShard>, start = 0, length = 100): Parameters<typeof addon.intersect>[0][number] => {
    const c = { ...good, ...patch };
    return [c.bases, c.widths, c.starts, c.data, start, length, 1];
  };
  const other: Parameters<typeof addon.intersect>[0][number] = [Uint32Array.of(1, 2, 3), 1];
  t.doesNotThrow(() => addon.intersect([clause({}), other], Infinity));
  t.throws(() => addon.intersect([clause({}, 0, good.bases.length * 128 + 1), other], Infinity), /past its blocks/);
  t.throws(() => addon.intersect([clause({ widths: Object.assign(copy(good.widths), { 0: 7 }) }), other], Infinity), /width 7/);
  t.throws(() => addon.intersect([clause({ starts: Object.assign(copy(good.starts), { 0: 0xffff_0000 }) }), other], Infinity), /past the data/);
  t.throws(() => addon.intersect([[Uint32Array.of(1, 2), new Float32Array(1)], other], Infinity), /weights/);
  t.throws(() => addon.intersect([], Infinity), /no clause/);
  // track.search's loop: every document is checked against the columns before any is read.
  const ix = new TextIndex(index);
  t.throws(() => addon.rankTracks(ix.track, Uint32Array.of(0, ix.track.id.length), 1, { count: 10 }, Infinity), /past the columns/);
  t.throws(() => addon.rankTracks({ ...ix.track, flags: new Uint8Array(1) }, null, 0, { count: 10 }, Infinity), /differ in length/);
  t.throws(() => addon.rankTracks({ ...ix.track, lang: new Uint32Array(ix.track.id.length) }, null, 0, { count: 10 }, Infinity), /lang column/);
  t.throws(() => addon.rankTracks(ix.track, Uint32Array.of(0, 1), new Float32Array(1), { count: 10 }, Infinity), /weights/);
  t.same([...addon.rankTracks(ix.track, null, 0, { count: 0 }, Infinity)![0]], [], 'a page of none');
});

t.test('FingerprintSearcher answers with the kernel it is given', { skip }, async (t) => {
  const data = await indexedDataDir(t, [...generateCatalog({ tracks: 200, seed: 9 }).lines]);
  const index = await loadGenerationAsync(currentGeneration(data)!);
  let stages = 0;
  const counting: Kernel = { ...native!, candidateStage: (i, l) => (stages++, native!.candidateStage(i, l)) };
  new FingerprintSearcher(index, () => undefined, undefined, undefined, undefined, undefined, counting);
  t.equal(stages, 1);
});
