/**
 * track.lyrics.fingerprint.post through the real server, on real text (a slice of the Debian
 * fortunes corpus) plus the fixture catalog: matches, ranking, versions, and every error case.
 */
import t from 'tap';
import { normalizeText } from '../../src/index/kernel/normalize.js';
import { gramHashes, GRAM, indexKeys, isSampled } from '../../src/index/kernel/grams.js';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { startTestServer, type TestServer, apiStatus } from '../helpers/server.js';
import { FIXTURE_RECORDS, LYRICS } from '../helpers/fixtures.js';
import { CORPUS_DIR } from '../helpers/tmp.js';

interface CorpusTrack {
  type: string;
  track_id: number;
  lyrics?: { lyrics_body: string };
}

function corpus(file: string, lines: number): CorpusTrack[] {
  return gunzipSync(readFileSync(path.join(CORPUS_DIR, file))).toString('utf8').split('\n').filter(Boolean).slice(0, lines).map((l) => JSON.parse(l) as CorpusTrack);
}

const TEXTS = [...corpus('en.jsonl.gz', 3000), ...corpus('es.jsonl.gz', 800)];
/** Three songs quoting one line, of unequal popularity, and one in Japanese (written without spaces). */
const SHARED_LINE = 'we keep on dancing over broken glass tonight';
const QUOTING = [[9001, 20], [9002, 90], [9003, 50]].map(([id, rating], i) => ({
  type: 'track', track_id: id, commontrack_id: id, track_name: `Quoting Song ${i}`, artist_id: 100, artist_name: 'The Fixtures', album_id: 1000,
  track_rating: rating, num_favourite: rating,
  lyrics: { lyrics_body: `${['amber lanterns drift past the harbour wall', 'seven cold winters taught my hands to wait', 'the radio hums a tune nobody remembers'][i]}\n${SHARED_LINE}\n${['salt and silver on the morning tide', 'paper boats are sailing down the gutter', 'my shadow walks a little slower now'][i]}`, lyrics_language: 'en' },
}));
const JAPANESE = {
  type: 'track', track_id: 9004, commontrack_id: 9004, track_name: '星の歌', artist_id: 100, artist_name: 'The Fixtures', album_id: 1000,
  track_rating: 40, num_favourite: 40, lyrics: { lyrics_body: '夜空に光る星を見上げて\n遠い君の名前を呼んだ\n風が答えをくれるまで', lyrics_language: 'ja' },
};
/** A stock line forty songs share, each with a line of its own; ratings 1–40, unequal to the track ids' order. */
const STOCK_LINE = 'baby tonight we are gonna be alright';
const STOCK = Array.from({ length: 40 }, (_, i) => ({
  type: 'track', track_id: 9100 + i, commontrack_id: 9100 + i, track_name: `Stock Song ${i}`, artist_id: 100, artist_name: 'The Fixtures', album_id: 1000,
  track_rating: 1 + ((i * 17) % 40), num_favourite: 0,
  lyrics: { lyrics_body: `${STOCK_LINE}\nverse number ${i} of the stock songs goes here ${'abcdefghijklmnopqrstuvwxyz'[i % 26]}${i}`, lyrics_language: 'en' },
}));
/**
 * A line one song holds, and thirty more popular songs each hold with one letter changed where no
 * sampled gram sees it: every key of the line is in all thirty-one, so they tie for the most votes,
 * and only verifying them tells the song that holds the whole line.
 */
const DECOYED_LINE = 'quiet marmalade engines hum beneath the velvet orchard gates';
function decoyOf(line: string): string {
  const sampled = (text: string): number[] => {
    const hashes = new Uint32Array(text.length);
    const n = gramHashes(text, hashes);
    return Array.from(hashes.subarray(0, n), (h, i) => (isSampled(h) ? i : -1)).filter((i) => i >= 0);
  };
  const before = sampled(line).join();
  const inner = line.indexOf(' ') + 1;
  for (let at = inner; at < line.lastIndexOf(' '); at++) {
    if (line[at] === ' ') continue;
    for (const c of 'xzqjkvwy') {
      const decoy = line.slice(0, at) + c + line.slice(at + 1);
      // The same sampled grams at the same places: no gram over the change is sampled, before or after.
      const unseen = [...Array(GRAM).keys()].every((k) => at - k < 0 || !sampled(line).includes(at - k)) && sampled(decoy).join() === before;
      if (c !== line[at] && unseen) return decoy;
    }
  }
  throw new Error('no letter of the line is unseen by the sampled grams');
}
const DECOYED = [
  { id: 9200, rating: 1, body: DECOYED_LINE },
  ...Array.from({ length: 30 }, (_, i) => ({ id: 9201 + i, rating: 50 + i, body: decoyOf(DECOYED_LINE) })),
].map(({ id, rating, body }) => ({
  type: 'track', track_id: id, commontrack_id: id, track_name: `Decoyed Song ${id}`, artist_id: 100, artist_name: 'The Fixtures', album_id: 1000,
  track_rating: rating, num_favourite: 0,
  lyrics: { lyrics_body: `a first line of song ${id} stands here\n${body}\nand a last line of song ${id} ends it`, lyrics_language: 'en' },
}));
const RECORDS: unknown[] = [...TEXTS, ...FIXTURE_RECORDS, ...QUOTING, JAPANESE, ...STOCK, ...DECOYED];
const LONG = TEXTS.filter((r): r is CorpusTrack & { lyrics: { lyrics_body: string } } => r.type === 'track' && (r.lyrics?.lyrics_body.length ?? 0) > 420);
const PROSE =
  'The quarterly report was delayed because the accounting office moved to the new building on the other side of the river, ' +
  'and the printers there still need drivers. The committee agreed to meet again next Tuesday to approve the revised budget.';

/**
 * The first `count` lines of `min`–`max` words, one per long corpus text, that no other text of the
 * test catalog holds (and that pass `also`), with their track.
 */
function uniqueLines(count: number, min: number, max: number, also: (line: string) => boolean = () => true): { line: string; track: number }[] {
  const bodies = TEXTS.map((r) => r.lyrics?.lyrics_body.toLowerCase() ?? '');
  const out: { line: string; track: number }[] = [];
  for (const track of LONG) {
    const line = track.lyrics.lyrics_body.split('\n').find((l) => {
      const words = l.trim().split(/\s+/).length;
      return words >= min && words <= max && also(l) && bodies.filter((b) => b.includes(l.toLowerCase())).length === 1;
    });
    if (line) out.push({ line, track: track.track_id });
    if (out.length === count) break;
  }
  return out;
}

let api: TestServer;

async function screen(text: unknown, params: Record<string, string | number> = {}, key = api.keys.enterprise, body?: string) {
  const qs = new URLSearchParams({ apikey: key, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  const res = await fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.post?${qs}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body ?? JSON.stringify({ data: { text } }),
  });
  return { status: apiStatus(res), hint: res.headers.get('x-refrain-header-hint'), json: (await res.json()) as { message: { header: Record<string, unknown>; body: any } } }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

t.before(async () => {
  api = await startTestServer(t, { records: RECORDS, flags: ['--max-fingerprint-chars', '5000'] });
});

t.test('an exact excerpt finds its track first, at about 100', async (t) => {
  for (const track of LONG.slice(0, 40)) {
    const text = track.lyrics.lyrics_body.slice(100, 300);
    const { status, json } = await screen(text);
    t.equal(status, 200);
    const [first] = json.message.body.track_list;
    t.equal(first?.track.track_id, track.track_id, `track ${track.track_id}`);
    t.ok(first.similarity > 97 && first.similarity <= 100, `similarity ${first.similarity}`);
    t.type(first.matched_chars, 'number');
    t.notOk('track_lyrics_translation_status' in first.track, 'fingerprint results leave the translation status out');
  }
});

t.test('a one-line quote: unique to a song, it finds that song first; shared, it lists every song quoting it, most popular first', async (t) => {
  const lines = uniqueLines(20, 4, 9);
  t.equal(lines.length, 20, 'twenty unique lines checked');
  for (const { line, track } of lines) {
    const { status, json } = await screen(line);
    t.equal(status, 200, line);
    t.equal(json.message.body.track_list[0]?.track.track_id, track, `"${line}" finds track ${track} first`);
    t.ok(json.message.body.track_list[0]?.similarity > 95, `"${line}": unique to its song, about 100`);
  }

  const shared = await screen(SHARED_LINE);
  const ids = shared.json.message.body.track_list.map((m: { track: { track_id: number } }) => m.track.track_id);
  t.same(ids.slice(0, 3), [9002, 9003, 9001], 'every song quoting the line, most popular first');
  const similarities = shared.json.message.body.track_list.slice(0, 3).map((m: { similarity: number }) => m.similarity);
  t.same(similarities, [33.33, 33.33, 33.33], 'three songs account for the line equally: a third each');
  t.same(shared.json.message.body.track_list.slice(0, 3).map((m: { longest_match: number }) => m.longest_match), [SHARED_LINE.length, SHARED_LINE.length, SHARED_LINE.length], 'the whole line is lyrics');
  const three = await screen('broken glass tonight');
  t.equal(three.status, 200, 'three words are enough');
  t.ok(three.json.message.body.track_list.some((m: { track: { track_id: number } }) => m.track.track_id === 9002));
  const six = await screen('遠い君の名前');
  t.equal(six.status, 200, 'six characters of Japanese are screened');
  t.equal(six.json.message.body.track_list[0]?.track.track_id, 9004, 'and find their song');
  const japanese = await screen('夜空に光る星を見上げて\n遠い君の名前を呼んだ\n風が答えをくれるまで');
  t.equal(japanese.json.message.body.track_list[0]?.track.track_id, 9004, 'two Japanese lines find their song');
});

t.test('a line too short to make index keys is found by its words', async (t) => {
  const fewKeys = (l: string) => {
    const normal = normalizeText(l);
    return indexKeys(normal, new Uint32Array(normal.length + 8), 24).length < 2;
  };
  const lines = uniqueLines(10, 3, 5, fewKeys);
  t.equal(lines.length, 10, 'ten such lines checked');
  for (const { line, track } of lines) {
    const { json } = await screen(line);
    t.equal(json.message.body.track_list[0]?.track.track_id, track, `"${line}" (under two keys) finds track ${track} first`);
  }
});

t.test('a stock line forty songs share: the most popular of all of them first, each at a fortieth at most', async (t) => {
  const r = await screen(STOCK_LINE, { size: 5 });
  const list = r.json.message.body.track_list as { similarity: number; track: { track_rating: number } }[];
  t.same(list.map((m) => m.track.track_rating), [40, 39, 38, 37, 36], 'the five most popular of the forty, in order');
  t.ok(list.every((m) => m.similarity <= 100 / 16 + 0.01), `similarity ${list[0].similarity}: shared by at least the 16 verified`);
});

t.test('an exact line whose every key thirty more popular songs also hold is still found: the tie is verified further', async (t) => {
  t.not(decoyOf(DECOYED_LINE), DECOYED_LINE, 'the decoys differ from the line');
  const r = await screen(DECOYED_LINE, { size: 1 });
  const [first] = r.json.message.body.track_list as { similarity: number; track: { track_id: number } }[];
  t.equal(first?.track.track_id, 9200, 'the song that holds the whole line');
  t.equal(first?.similarity, 100);
});

t.test('case, punctuation, line breaks and typos still find it, with a lower similarity for typos', async (t) => {
  const track = LONG[7];
  const excerpt = track.lyrics.lyrics_body.slice(50, 350);
  const reformatted = excerpt.toUpperCase().replace(/\n/g, ' / ').replace(/[,.;:!?]/g, '');
  let r = await screen(reformatted);
  t.equal(r.json.message.body.track_list[0].track.track_id, track.track_id);
  t.ok(r.json.message.body.track_list[0].similarity > 95);

  const chars = [...excerpt];
  for (let i = 7; i < chars.length; i += 13) chars[i] = chars[i] === 'x' ? 'y' : 'x';
  r = await screen(chars.join(''));
  const first = r.json.message.body.track_list[0];
  t.equal(first.track.track_id, track.track_id);
  t.ok(first.similarity > 60 && first.similarity < 98, `similarity with typos ${first.similarity}`);
});

t.test('a passage inside unrelated prose is found with a similarity near its share', async (t) => {
  const track = LONG[11];
  const excerpt = track.lyrics.lyrics_body.slice(0, 200);
  const { json } = await screen(`${PROSE} ${excerpt} ${PROSE}`);
  const first = json.message.body.track_list[0];
  t.equal(first.track.track_id, track.track_id);
  t.ok(first.similarity > 15 && first.similarity < 60, `similarity ${first.similarity}`);
  t.ok(first.longest_match >= 150, `longest match ${first.longest_match}`);
});

t.test('unrelated text: nothing, or only low scores', async (t) => {
  const { status, json } = await screen(PROSE);
  t.equal(status, 200);
  for (const m of json.message.body.track_list) t.ok(m.similarity < 30, `similarity ${m.similarity}`);
});

t.test('several tracks of one lyric: versions come in rank order until limit', async (t) => {
  let r = await screen(LYRICS, { size: 1, limit: 1 });
  t.same(r.json.message.body.track_list.map((m: { track: { track_id: number } }) => m.track.track_id), [1], 'the most popular version first');
  r = await screen(LYRICS, { size: 5 });
  const ids = r.json.message.body.track_list.map((m: { track: { track_id: number } }) => m.track.track_id);
  t.same(ids.slice(0, 2), [1, 2], 'both versions of commontrack 10');
  r = await screen(LYRICS, { size: 5, limit: 1 });
  t.equal(r.json.message.body.track_list.length, 1);
});

t.test('bad requests answer 400 with a hint, and an empty body', async (t) => {
  const cases: [string, unknown, Record<string, string | number>, string | undefined, RegExp][] = [
    ['missing data', undefined, {}, '{}', /^data is required/],
    ['text not a string', 42, {}, undefined, /^data\.text must be a string/],
    ['empty text', '   ', {}, undefined, /data\.text is empty/],
    ['too few words', 'two words', {}, undefined, /^data\.text must hold at least 3 words, or 6 characters of a script written without spaces \(it has 2 words\)$/],
    ['too few characters of an unspaced script', '夜空に光る', {}, undefined, /at least 3 words, or 6 characters .* \(it has 1 word\)/],
    ['too long', 'word '.repeat(1200), {}, undefined, /6000 characters long; the limit is 5000/],
    ['not JSON', undefined, {}, '{"data":', /not valid JSON/],
    ['size too big', PROSE, { size: 21 }, undefined, /^size must be an integer from 1 to 20/],
    ['size zero', PROSE, { size: 0 }, undefined, /^size must be an integer from 1 to 20/],
    ['limit above size', PROSE, { size: 3, limit: 4 }, undefined, /limit must be between 1 and size \(3\)/],
    ['limit not a number', PROSE, { limit: 'x' }, undefined, /^limit must be an integer/],
  ];
  for (const [name, text, params, body, hint] of cases) {
    const r = await screen(text, params, api.keys.enterprise, body);
    t.equal(r.status, 400, name);
    t.match(r.json.message.header.hint, hint, name);
    t.same(r.json.message.body, [], name);
  }
  const wrongType = await fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.post?apikey=${api.keys.enterprise}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: PROSE });
  t.equal(apiStatus(wrongType), 400);
});

t.test('only the enterprise plan may screen (403 Forbidden); GET is 405', async (t) => {
  for (const plan of ['free', 'basic'] as const) {
    const r = await screen(PROSE, {}, api.keys[plan]);
    t.equal(r.status, 403);
    t.equal(r.hint, `Forbidden: track.lyrics.fingerprint.post needs the enterprise plan (this caller has the ${plan} plan)`);
    t.same(r.json.message.body, []);
  }
  const get = await api.get('/ws/1.1/track.lyrics.fingerprint.post', { apikey: api.keys.enterprise });
  t.equal(get.status, 405);
  t.equal(get.headers.get('allow'), 'POST');
});
