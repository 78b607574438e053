import t from 'tap';
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { Catalog, CONTENT_KINDS } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { CORPUS_DIR, tempDir, writeJsonl } from '../helpers/tmp.js';
import { applyRecords } from '../helpers/apply.js';
import { generatedRecords, storedBytes, storedContents } from '../helpers/generated-catalog.js';

const artist = { type: 'artist', artist_id: 7, artist_name: 'Seven', artist_rating: 40 };
const track = (id: number, extra: object = {}) => ({
  type: 'track', track_id: id, track_name: `Song ${id}`, artist_id: 7, artist_name: 'Seven', album_id: 70, album_name: 'First',
  track_isrc: `USAAA26${String(id).padStart(5, '0')}`, track_rating: id, lyrics: { lyrics_body: `words of song ${id}`, lyrics_language: 'en' }, ...extra,
});

t.test('imports, indexes, re-imports as a no-op, and deletes', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const file = writeJsonl(dir, 'a.jsonl', [artist, track(1), track(2, { commontrack_id: 1 }), track(3)]);
  const first = await importFiles(catalog, [file]);
  t.equal(first.imported, 4, 'artist and three tracks');
  t.equal(first.rejected, 0);
  t.equal(catalog.trackCount(), 3);
  t.same(catalog.idsOf('commontrack', 1), [1, 2]);
  t.same(catalog.getTrack(1)?.commontrack_isrcs, ['USAAA2600001', 'USAAA2600002'], 'versions share their ISRCs');
  t.same(catalog.getTrack(3)?.commontrack_isrcs, ['USAAA2600003']);
  t.same(catalog.idsOf('isrc', 'USAAA2600003'), [3]);
  t.same(catalog.idsOf('album_tracks', 70), [1, 2, 3]);
  t.same(catalog.idsOf('artist_albums', 7), [70], 'album derived from the tracks');
  t.equal(catalog.getAlbum(70)?.derived, 1);
  t.equal(catalog.getTrack(1)?.has_lyrics, 1);
  t.equal(catalog.getContent('lyrics', 2)?.lyrics_id, 2, 'lyrics_id defaults to the track id');
  t.same([...catalog.tracksByPopularity()], [3, 2, 1]);
  const seq = catalog.lastChange();

  const again = await importFiles(catalog, [file]);
  t.equal(again.unchanged, 4, 're-importing the same file changes nothing');
  t.equal(catalog.lastChange(), seq, 'and logs nothing');

  const changes = writeJsonl(dir, 'b.jsonl', [track(2, { commontrack_id: 1, track_isrc: 'GBBBB2600002', lyrics: undefined }), { type: 'delete', track_id: 3 }, { type: 'delete', track_id: 99 }]);
  const second = await importFiles(catalog, [changes]);
  t.equal(second.updated, 1);
  t.equal(second.deleted, 1);
  t.equal(second.absent, 1);
  t.same(catalog.idsOf('isrc', 'USAAA2600002'), [], 'old ISRC unindexed');
  t.same(catalog.idsOf('isrc', 'GBBBB2600002'), [2]);
  t.same(catalog.getTrack(1)?.commontrack_isrcs, ['USAAA2600001', 'GBBBB2600002'], "a version's new ISRC reaches its siblings");
  t.equal(catalog.getContent('lyrics', 2), undefined, 'a track line is the whole track: lyrics it lacks are removed');
  t.equal(catalog.getTrack(2)?.has_lyrics, 0);
  t.equal(catalog.getTrack(3), undefined);
  t.equal(catalog.trackCount(), 2, 'the kept count follows the change log');
  const log = [...catalog.changesSince(seq)].map((c) => [c.value.op, c.value.kind, c.value.id]);
  t.same(log, [['put', 'track', 2], ['del', 'track', 3]]);
});

t.test('bad lines are reported with line numbers; --strict applies nothing', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const file = writeJsonl(dir, 'bad.jsonl', [track(1), '{not json', { type: 'track', track_id: 'x' }, { type: 'song' }, track(2)]);
  const strict = await importFiles(catalog, [file], { strict: true }).catch((e: unknown) => e);
  t.match(strict, { code: 'bad_request', hint: /bad\.jsonl:2: not JSON.*nothing was imported/ });
  t.equal(catalog.trackCount(), 0, 'strict: nothing applied');
  const report = await importFiles(catalog, [file]);
  t.equal(report.imported, 2, 'the two good tracks');
  t.equal(report.rejected, 3);
  t.same(report.rejections.map((r) => r.line), [2, 3, 4]);
  t.match(report.rejections[1].reason, /^track_id: /);
  t.match(report.rejections[2].reason, /type/);
});

t.test('every corpus file imports cleanly', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const files = readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.jsonl.gz')).map((f) => path.join(CORPUS_DIR, f));
  t.equal(files.length, 5);
  const report = await importFiles(catalog, files, { batch: 5000 });
  t.equal(report.rejected, 0, JSON.stringify(report.rejections.slice(0, 3)));
  t.equal(catalog.trackCount(), 13106 + 8107 + 7855 + 7645 + 606);
  const again = await importFiles(catalog, files, { batch: 5000 });
  t.equal(again.imported + again.updated, 0, 'a second import changes nothing');
});

t.test('a version that leaves its commontrack takes its ISRC out of the group', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  await importFiles(catalog, [writeJsonl(dir, 'a.jsonl', [track(1), track(2, { commontrack_id: 1 })])]);
  t.same(catalog.getTrack(2)?.commontrack_isrcs, ['USAAA2600001', 'USAAA2600002']);
  await importFiles(catalog, [writeJsonl(dir, 'b.jsonl', [track(2)])]);
  t.same(catalog.getTrack(1)?.commontrack_isrcs, ['USAAA2600001']);
  t.same(catalog.getTrack(2)?.commontrack_isrcs, ['USAAA2600002']);
  await importFiles(catalog, [writeJsonl(dir, 'c.jsonl', [{ type: 'delete', track_id: 1 }, track(3, { commontrack_id: 2 })])]);
  t.same(catalog.getTrack(2)?.commontrack_isrcs, ['USAAA2600002', 'USAAA2600003']);
});

t.test('a catalog written with another record layout is refused at open', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  await importFiles(catalog, [writeJsonl(dir, 'a.jsonl', [track(1)])]);
  catalog.meta.putSync('catalog:format', 0);
  await catalog.close();
  let error: unknown;
  try {
    Catalog.open(dir);
  } catch (e) {
    error = e;
  }
  t.match(error, { code: 'bad_request', hint: /written by another version of Refrain \(format 0, this one reads 1, 2 and 3\)/ });
});

t.test('the reading thread hands over synced bodies it has encoded without their text, and the catalog is the same as written without it', async (t) => {
  const records = generatedRecords(400);
  const withSubtitleAndTranslations = records.filter((r) => {
    const x = r as { subtitle?: unknown; richsync?: unknown; translations?: unknown[] };
    return x.subtitle && x.translations?.length;
  });
  t.ok(withSubtitleAndTranslations.length > 0, 'some tracks have a subtitle and translations (made from the subtitle)');
  t.ok(records.some((r) => (r as { richsync?: unknown }).richsync), 'some have a richsync');
  const dir = tempDir(t);
  const imported = Catalog.open(path.join(dir, 'a'));
  const written = Catalog.open(path.join(dir, 'b'));
  t.teardown(() => Promise.all([imported.close(), written.close()]));
  await importFiles(imported, [writeJsonl(dir, 'g.jsonl', records)]);
  // The writer alone (no reading thread): it encodes the synced bodies itself from the whole lines.
  applyRecords(written, records);
  t.same(storedContents(imported), storedContents(written));
});

t.test('one, two or three reading threads write the same catalog to the byte, report the same, and hold what the writer alone writes', async (t) => {
  const records: unknown[] = generatedRecords(500, 11);
  // Bad lines, blank lines (a whole chunk of them), deletes and a replaced track among the good ones.
  records.splice(30, 0, '{not json', { type: 'track', track_id: 'x' });
  records.splice(100, 0, ...Array.from({ length: 25 }, () => ''));
  const tracks = records.filter((r) => (r as { type?: string }).type === 'track') as { track_id: number }[];
  const replaced = { ...tracks[5], track_name: 'Renamed' };
  const second = [{ type: 'delete', track_id: tracks[3].track_id }, replaced, '   ', { type: 'delete', track_id: 999_999 }];
  const dir = tempDir(t);
  const files = [writeJsonl(dir, 'a.jsonl', records), writeJsonl(dir, 'b.jsonl', second)];
  const reports: object[] = [];
  const bytes: Record<string, string[]>[] = [];
  for (const readers of [1, 2, 3]) {
    const data = path.join(dir, `r${readers}`);
    const catalog = Catalog.open(data);
    const report = await importFiles(catalog, files, { batch: 20, readers });
    if (readers === 3) t.same(storedContents(catalog), await (async () => {
      // The writer alone, in the same batches: it encodes every record itself.
      const alone = Catalog.open(path.join(dir, 'alone'));
      const good = [...records, ...second].filter((r) => typeof r !== 'string' && (r as { track_id?: unknown }).track_id !== 'x');
      for (let i = 0; i < good.length; i += 20) applyRecords(alone, good.slice(i, i + 20) as object[]);
      const contents = storedContents(alone);
      await alone.close();
      return contents;
    })(), 'the records read back are those the writer writes from the lines itself');
    await catalog.close();
    const { seconds: _s, tracksPerSecond: _r, ...rest } = report;
    reports.push(rest);
    bytes.push(await storedBytes(data));
  }
  t.match(reports[0], { rejected: 2, deleted: 1, absent: 1, updated: 1, lines: records.length - 25 + 3 });
  t.same(reports[1], reports[0], 'two threads: the same report');
  t.same(reports[2], reports[0], 'three threads: the same report');
  t.ok(Object.keys(bytes[0]).length >= 20 && bytes[0].lyrics.length > 300);
  t.same(bytes[1], bytes[0], 'two threads: the same bytes in every database');
  t.same(bytes[2], bytes[0], 'three threads: the same bytes in every database');
});

t.test('a reading thread encodes a content record as the writer stores it, leaves a shape not yet shared to the writer, and one past the shared structures reads back', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const records = generatedRecords(120, 3) as { type: string; track_id?: number; analysis?: object }[];
  // The first transaction's records are compressed again when their dictionary is made (by
  // lmdb-js's own compressor); a later one's as the writer and a reading thread compress them.
  applyRecords(catalog, records.slice(0, 60));
  applyRecords(catalog, records.slice(60));
  const encoders = catalog.contentEncoders();
  t.same(Object.keys(encoders).sort(), CONTENT_KINDS.filter((k) => catalog.content[k].getKeysCount() > 0).sort(), 'one for each database that has its dictionary');
  const analysed = records.slice(60).find((r) => r.analysis)!.track_id!;
  const stored = catalog.getContent('analysis', analysed)!;
  const bytes0 = encoders.analysis!.encode(stored)!;
  t.ok(Buffer.from(bytes0).equals(catalog.encodedWrites('analysis').getBinary(analysed)!), 'the bytes the writer stored');
  t.equal(encoders.analysis!.encode({ meaning: { description: 'new', unheard_of: 1 }, updated_time: '2026-01-01T00:00:00Z' }), undefined, 'a new shape: left to the writer');
  t.equal(catalog.contentEncoders(encoders).analysis, encoders.analysis, 'kept while the structures are the same');

  // The writer shares new shapes until msgpackr's 32 shared structures are taken; then a new shape is
  // written inline, by the writer as by a reading thread, and reads back anywhere.
  const shapes = Array.from({ length: 40 }, (_, i) => ({
    type: 'track', track_id: 800_000 + i, track_name: 'x', artist_id: 1, artist_name: 'A', analysis: { [`member_${i}`]: { [`field_${i}`]: i } },
  }));
  applyRecords(catalog, shapes);
  const after = catalog.contentEncoders(encoders);
  t.not(after.analysis, encoders.analysis, 'made again: the structures grew');
  const odd = { meaning: { description: 'new', unheard_of: [{ nested_shape: 1, more: 'x'.repeat(200) }] }, updated_time: '2026-01-01T00:00:00Z' };
  const bytes = after.analysis!.encode(odd);
  t.ok(bytes, 'past the shared structures: encoded, its shape inline');
  catalog.writeTransaction(() => catalog.encodedWrites('analysis').putSync(900_001, bytes!));
  t.same(catalog.getContent('analysis', 900_001), odd);
  applyRecords(catalog, [{ ...shapes[0], track_id: 900_002, analysis: { another: { shape: [1] } } }]);
  t.same(catalog.getContent('analysis', 900_001), odd, 'and after the writer wrote other shapes');
  await catalog.close();
  const reopened = Catalog.open(dir);
  t.same(reopened.getContent('analysis', 900_001), odd, 'and in another process or thread');
  await reopened.close();
});

t.test('a line the catalog holds unchanged is left to the writer, which sees the latest: a track changed and changed back in one file ends as its last line', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const records = generatedRecords(60, 4) as { type: string; track_id?: number; track_name?: string; lyrics?: object }[];
  await importFiles(catalog, [writeJsonl(dir, 'a.jsonl', records)], { batch: 10, readers: 2 });
  const original = records.filter((r) => r.type === 'track' && r.lyrics)[30];
  const before = catalog.getTrack(original.track_id!);
  const lyricsBefore = catalog.getContent('lyrics', original.track_id!);
  t.ok(lyricsBefore, 'a track with lyrics');
  const changed = { ...original, track_name: 'Changed for a moment' };
  // The change in the first chunk (thread 0), the original again in the second (thread 1): thread 1
  // reads its chunk while the first is not yet written, its snapshot still showing the original.
  const others = records.filter((r) => r.type === 'track' && r.track_id !== original.track_id).slice(0, 30);
  const lines = [changed, others[0], original, ...others.slice(1)];
  const report = await importFiles(catalog, [writeJsonl(dir, 'b.jsonl', lines)], { batch: 2, readers: 2 });
  t.equal(report.updated, 2, 'changed, then changed back');
  t.equal(report.unchanged, 30);
  catalog.refresh();
  t.equal(catalog.getTrack(original.track_id!)?.track_name, original.track_name);
  t.same(catalog.getContent('lyrics', original.track_id!), lyricsBefore, 'its lyrics as they were');
  t.equal(catalog.getTrack(original.track_id!)?.hash, before?.hash);
});
