import t from 'tap';
import { decodeSynced, encodeLrc, encodeRichsync, parseRichsync, richsyncJsonString, scanRichsync } from '../../src/catalog/synced.js';
import { Catalog } from '../../src/catalog/store.js';
import { catalogLines } from '../../src/generate/catalog.js';
import { applyRecords } from '../helpers/apply.js';
import { tempDir, writeJsonl } from '../helpers/tmp.js';
import { importFiles } from '../../src/catalog/import.js';

interface GeneratedTrack {
  type: 'track';
  track_id: number;
  lyrics?: { lyrics_body: string };
  subtitle?: { subtitle_body: string };
  richsync?: { richsync_body: string };
}

/** The first generated tracks that carry a subtitle and a richsync. */
function generated(n: number): GeneratedTrack[] {
  const out: GeneratedTrack[] = [];
  for (const line of catalogLines(11, 400, { artists: 0, albums: 0, tracks: 0, lines: 0 })) {
    const r = JSON.parse(line) as GeneratedTrack;
    if (r.type === 'track' && r.lyrics && r.subtitle && r.richsync) out.push(r);
    if (out.length === n) break;
  }
  return out;
}

const LYRICS = 'Hello "world"\n\nSecond line, café ☕\nback\\slash';

t.test('generated subtitles and richsyncs are stored as timings and line numbers, and render back exactly', async (t) => {
  const tracks = generated(20);
  t.equal(tracks.length, 20);
  let text = 0;
  let stored = 0;
  for (const tr of tracks) {
    const lyrics = tr.lyrics!.lyrics_body;
    const lrc = encodeLrc(tr.subtitle!.subtitle_body, lyrics);
    const rich = encodeRichsync(tr.richsync!.richsync_body, lyrics);
    if (!lrc || !rich) return t.fail(`track ${tr.track_id}: no compact form`);
    t.equal(decodeSynced(lrc, lyrics), tr.subtitle!.subtitle_body);
    t.equal(decodeSynced(rich, lyrics), tr.richsync!.richsync_body);
    t.equal(richsyncJsonString(rich, lyrics).toString('utf8'), JSON.stringify(tr.richsync!.richsync_body), 'written as a JSON string, escaped as JSON.stringify does');
    text += tr.subtitle!.subtitle_body.length + tr.richsync!.richsync_body.length;
    stored += lrc.length + rich.length;
  }
  t.ok(stored * 10 < text, `stored ${stored} bytes for ${text} characters of text`);
});

t.test('lines that are not the lyrics\', any characters, and other cuts of a line are kept', async (t) => {
  const lrc = '[00:01.00] Hello "world"\n[00:02.50] not in the lyrics ☕\n[01:00.07] \n[123:59.99] back\\slash';
  const form = encodeLrc(lrc, LYRICS);
  t.ok(form);
  t.equal(decodeSynced(form!, LYRICS), lrc);
  const times = '[00:05.00] Second line, café ☕\n[00:01.00] Hello "world"';
  t.equal(decodeSynced(encodeLrc(times, LYRICS)!, LYRICS), times, 'times going back');
  const rich = JSON.stringify([
    { ts: 1.5, te: 3, l: [{ c: 'Hel', o: 0 }, { c: 'lo "world"', o: 0.33 }], x: 'Hello "world"' },
    { ts: 3, te: 4.07, l: [{ c: 'back\\slash', o: 0 }], x: 'back\\slash' },
    { ts: 10, te: 12, l: [{ c: 'new', o: 0 }, { c: ' ', o: 0.5 }, { c: 'line', o: 0.51 }], x: 'new line' },
    { ts: 12, te: 12, l: [], x: '' },
  ]);
  const richForm = encodeRichsync(rich, LYRICS);
  t.ok(richForm);
  t.equal(decodeSynced(richForm!, LYRICS), rich);
  t.equal(decodeSynced(encodeLrc(lrc, '')!, ''), lrc, 'a track without lyrics keeps every line inline');

  const words = (x: string, ts: number) => {
    const l: { c: string; o: number }[] = [];
    x.split(' ').forEach((w, i) => {
      if (i) l.push({ c: ' ', o: (i * 20 - 10) / 100 });
      l.push({ c: w, o: (i * 20) / 100 });
    });
    return { ts, te: ts + 2, l, x };
  };
  const mixed = JSON.stringify([
    words('Second line, café ☕', 0), words('an  extra   space', 1.01), words('a 🎵 note', 2.5), words('Hello "world"', 3), words('', 4),
  ]);
  t.equal(decodeSynced(encodeRichsync(mixed, LYRICS)!, LYRICS), mixed, 'words and spaces of any text, escaped or not');
  t.equal(richsyncJsonString(encodeRichsync(mixed, LYRICS)!, LYRICS).toString('utf8'), JSON.stringify(mixed), 'and as a JSON string');
  t.equal(richsyncJsonString(richForm!, LYRICS).toString('utf8'), JSON.stringify(rich));
  t.throws(() => richsyncJsonString(form!, LYRICS), /not a richsync/, 'an LRC form is not written as a richsync');

  let unlike = 0;
  for (let cs = 0; cs < 400_000; cs += 37) {
    const body = JSON.stringify([{ ts: cs / 100, te: (cs + 1) / 100, l: [{ c: 'x', o: (cs % 1000) / 100 }], x: 'x' }]);
    const form = encodeRichsync(body, '');
    if (!form || decodeSynced(form, '') !== body) unlike++;
  }
  t.equal(unlike, 0, 'every centisecond time prints as JavaScript prints it');
});

t.test('anything this form cannot render back exactly is left as text', async (t) => {
  for (const lrc of [
    '[ar:Someone]\n[00:01.00] Hello "world"', // a tag line
    '[00:01.00] Hello "world"\r\n[00:02.00] back\\slash', // CRLF
    '[00:01.000] Hello "world"', // milliseconds
    '[00:01.00]Hello "world"', // no space
    '[00:61.00] Hello "world"', // seconds past 59 render otherwise
    '[00:01.00][00:09.00] Hello "world"', // two times on a line
    '[099:01.00] Hello "world"', // minutes printed otherwise
    '[00:01.00] half a pair \ud83c', // a lone surrogate: UTF-8 cannot carry it
    '[0:01.00] Hello', // one digit of minutes
    '[1234567:01.00] Hello', // seven
    '[0a:01.00] Hello', // not digits
    '[٠٠:01.00] Hello', // digits of another script
    '[00:01,00] Hello', // another separator
    '[00:01.0] Hello', // one digit of hundredths
    ' [00:01.00] Hello', // white space first
    '[00:01.00] line\u2028separator', // a line break JavaScript knows besides \n
    '[00:01.00] paragraph\u2029separator',
    '[00:01.00] Hello\n', // an empty last line
    '',
  ]) t.equal(encodeLrc(lrc, LYRICS), undefined, JSON.stringify(lrc).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)); // (TAP reads U+2028 as a line end)
  for (const rich of [
    'not json',
    '{"ts":1}',
    '[{"ts":1.005,"te":2,"l":[],"x":""}]', // below a centisecond
    '[{"te":2,"ts":1,"l":[],"x":""}]', // another key order
    '[{"ts":1,"te":2,"l":[],"x":"","extra":1}]', // a field this form does not keep
    '[{"ts":1.0,"te":2,"l":[],"x":""}]', // another number format
    '[{"ts":1,"te":2,"l":[{"c":"a","o":"0"}],"x":"a"}]', // a string offset
    ' [{"ts":1,"te":2,"l":[],"x":""}]', // white space
  ]) t.equal(encodeRichsync(rich, LYRICS), undefined, rich);
});

t.test('a richsync in the form\'s own layout is read straight from the text, to the same bytes as the general way', async (t) => {
  const tracks = generated(20);
  const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) => a !== undefined && b !== undefined && Buffer.compare(a, b) === 0;
  for (const tr of tracks) {
    const body = tr.richsync!.richsync_body;
    const lyrics = tr.lyrics!.lyrics_body;
    if (!same(scanRichsync(body, lyrics), parseRichsync(body, lyrics))) t.fail(`track ${tr.track_id}: not read the same`);
  }
  t.equal(scanRichsync('[]', LYRICS)?.length, parseRichsync('[]', LYRICS)?.length, 'no lines');
  const line = (ts: string, x: string, groups: string) => `[{"ts":${ts},"te":2.5,"l":[${groups}],"x":"${x}"}]`;
  const canonical = line('1.07', 'a  é', '{"c":"a","o":0},{"c":" ","o":0.1},{"c":"","o":0.2},{"c":" ","o":0.3},{"c":"é","o":86400}');
  t.ok(same(scanRichsync(canonical, LYRICS), parseRichsync(canonical, LYRICS)), 'empty words, non-ASCII text, the longest time');
  const bom = line('1', '\ufeffHi', '{"c":"\ufeffHi","o":0}');
  t.ok(same(scanRichsync(bom, LYRICS), parseRichsync(bom, LYRICS)), 'a text starting with a byte-order mark');
  t.equal(decodeSynced(encodeRichsync(bom, LYRICS)!, LYRICS), bom, 'which it keeps');
  for (const other of [
    line('1.070', 'a', '{"c":"a","o":0}'), line('01', 'a', '{"c":"a","o":0}'), line('1.', 'a', '{"c":"a","o":0}'), line('1e2', 'a', '{"c":"a","o":0}'),
    line('1.001', 'a', '{"c":"a","o":0}'), line('86400.01', 'a', '{"c":"a","o":0}'), line('-1', 'a', '{"c":"a","o":0}'),
    line('1', 'a b', '{"c":"a b","o":0}'), line('1', 'a b', '{"c":"a","o":0},{"c":"b","o":0}'), line('1', 'ab', '{"c":"a","o":0},{"c":" ","o":0},{"c":"b","o":0}'),
    line('1', 'a', '{"c":"a","o":0},{"c":" ","o":0}'), line('1', '', ''), line('1', 'a\\"b', '{"c":"a\\"b","o":0}'), line('1', '\\u00e9', '{"c":"\\u00e9","o":0}'),
    line('1', '\\ud83c\\udfb5', '{"c":"\\ud83c\\udfb5","o":0}'), line('1', '🎵', '{"c":"🎵","o":0}'), line('1', 'a\tb', '{"c":"a\tb","o":0}'),
    line('1', 'a', '{"c":"a","o":0}') + ' ', line('1', 'a', '{"o":0,"c":"a"}'), line('1', 'a', '{"c":"a","o":0,"x":1}'),
  ]) t.equal(scanRichsync(other, LYRICS), undefined, `left to the general way: ${other}`);

  // Any edit of a canonical body: either still read the same as the general way, or left to it.
  let seed = 7;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  const pieces = ['"', '\\', '.', '0', '5', ' ', ',', '{', '}', '[', ']', ':', 'é', '\n', '"c":', '"o":0'];
  const body = tracks[0].richsync!.richsync_body.slice(0, 600).replace(/,\{"ts":[^]*$/, ']');
  const lyrics = tracks[0].lyrics!.lyrics_body;
  let scanned = 0;
  let differ = 0;
  for (let i = 0; i < 3000; i++) {
    const at = random(body.length);
    const edited = body.slice(0, at) + pieces[random(pieces.length)] + body.slice(at + random(3));
    const fast = scanRichsync(edited, lyrics);
    if (fast === undefined) continue;
    scanned++;
    if (!same(fast, parseRichsync(edited, lyrics))) differ++;
  }
  t.equal(differ, 0, `every edited body read straight (${scanned} of 3000) gives the general way's bytes`);
  t.ok(scanned > 100, 'some edits keep the layout');
});

t.test('an LRC line with six digits of minutes and a colon in its text is kept in the form, and renders back', async (t) => {
  for (const lrc of ['[123456:07.89] a: b', '[00:00.00] [not a time]: x\n[99:59.99] 12:34.56]']) {
    const form = encodeLrc(lrc, LYRICS);
    t.ok(form, lrc);
    t.equal(decodeSynced(form!, LYRICS), lrc);
  }
});

t.test('any LRC stored in the compact form renders back to exactly its text', async (t) => {
  let seed = 11;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  const pick = <T>(xs: readonly T[]) => xs[random(xs.length)];
  let stored = 0;
  let wrong = 0;
  for (let i = 0; i < 3000; i++) {
    const lines = Array.from({ length: 1 + random(4) }, () =>
      `[${pick(['00', '07', '59', '99', '099', '100', '1234', '0100'])}:${pick(['00', '09', '59', '60', '99'])}.${pick(['00', '05', '50', '99'])}] ${pick(['Hello "world"', 'back\\slash', '', 'café ☕', 'lone \udc00', '🎵', '\ufeffmarked'])}`);
    const lrc = lines.join('\n');
    const form = encodeLrc(lrc, LYRICS);
    if (!form) continue;
    stored++;
    if (decodeSynced(form, LYRICS) !== lrc) wrong++;
  }
  t.equal(wrong, 0, `every stored form renders back (${stored} of 3000 stored)`);
  t.ok(stored > 300 && stored < 2700, 'some kept as text, most not');
});

t.test('a stored form read against other lyrics is refused, not rendered wrong', async (t) => {
  const form = encodeLrc('[00:01.00] Hello "world"', LYRICS)!;
  t.throws(() => decodeSynced(form, 'one line only'), /lyrics of 4 lines/);
  t.throws(() => decodeSynced(form.subarray(0, form.length - 1), LYRICS), /ends early/);
});

t.test('the catalog stores the compact form and serves the exact text', async (t) => {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  const [tr] = generated(1);
  applyRecords(catalog, [tr]);
  const id = tr.track_id;
  t.type(catalog.content.subtitles.get(id)?.subtitle_body, Uint8Array, 'subtitle stored compact');
  t.type(catalog.content.richsync.get(id)?.richsync_body, Uint8Array, 'richsync stored compact');
  t.equal(catalog.getContent('subtitles', id)?.subtitle_body, tr.subtitle!.subtitle_body);
  t.equal(catalog.getContent('richsync', id)?.richsync_body, tr.richsync!.richsync_body);
  t.equal(catalog.getRichsyncJson(id)?.json().toString('utf8'), JSON.stringify(tr.richsync!.richsync_body), 'the richsync as a JSON string');
  t.notOk('richsync_body' in catalog.getRichsyncJson(id)!.record, 'beside the record without its body');
  // The body is written only when asked for (a restricted richsync is answered without it), and
  // from the form as read, even after other reads.
  const lyricsGet = catalog.content.lyrics.get.bind(catalog.content.lyrics);
  let lyricsRead = 0;
  catalog.content.lyrics.get = (key: number) => (lyricsRead++, lyricsGet(key));
  const lazy = catalog.getRichsyncJson(id)!;
  t.equal(lyricsRead, 0, 'no lyrics read before the body is asked for');
  catalog.content.subtitles.get(id);
  t.equal(lazy.json().toString('utf8'), JSON.stringify(tr.richsync!.richsync_body), 'the body when asked for');
  t.equal(lyricsRead, 1);
  catalog.content.lyrics.get = lyricsGet;
  t.same(Object.keys(catalog.getContent('subtitles', id)!).indexOf('subtitle_body'), Object.keys(catalog.content.subtitles.get(id)!).indexOf('subtitle_body'), 'the body keeps its place among the fields');

  // New lyrics in the same line: the subtitle is written against them, and still reads back exactly.
  const lines = tr.lyrics!.lyrics_body.split('\n');
  const changed = { ...tr, lyrics: { ...tr.lyrics, lyrics_body: ['an added first line', ...lines].join('\n') } };
  applyRecords(catalog, [changed]);
  t.equal(catalog.getContent('subtitles', id)?.subtitle_body, tr.subtitle!.subtitle_body);
  t.equal(catalog.getContent('richsync', id)?.richsync_body, tr.richsync!.richsync_body);

  // A subtitle this form cannot hold is stored as text.
  const tagged = { ...tr, subtitle: { ...tr.subtitle, subtitle_body: `[ar:Someone]\n${tr.subtitle!.subtitle_body}` } };
  applyRecords(catalog, [tagged]);
  t.type(catalog.content.subtitles.get(id)?.subtitle_body, 'string');
  t.equal(catalog.getContent('subtitles', id)?.subtitle_body, tagged.subtitle.subtitle_body);
  const spaced = { ...tr, richsync: { ...tr.richsync, richsync_body: ` ${tr.richsync!.richsync_body}` } };
  applyRecords(catalog, [spaced]);
  t.type(catalog.content.richsync.get(id)?.richsync_body, 'string', 'a richsync kept as text');
  t.equal(catalog.getRichsyncJson(id)?.json().toString('utf8'), JSON.stringify(spaced.richsync.richsync_body), 'is given as a JSON string too');
  t.equal(catalog.getRichsyncJson(999_999_999), undefined);
});

t.test('an import stores the forms its reading thread computed', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const tracks = generated(3);
  const report = await importFiles(catalog, [writeJsonl(dir, 'synced.jsonl', tracks)]);
  t.equal(report.rejected, 0);
  for (const tr of tracks) {
    t.type(catalog.content.richsync.get(tr.track_id)?.richsync_body, Uint8Array, `track ${tr.track_id}: richsync stored compact`);
    t.equal(catalog.getContent('subtitles', tr.track_id)?.subtitle_body, tr.subtitle!.subtitle_body);
    t.equal(catalog.getContent('richsync', tr.track_id)?.richsync_body, tr.richsync!.richsync_body);
  }
});
