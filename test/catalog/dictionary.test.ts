import t from 'tap';
import { trainDictionary } from '../../src/catalog/dictionary.js';
import { Catalog, CONTENT_KINDS, everyId } from '../../src/catalog/store.js';
import { applyWithin } from '../../src/catalog/write.js';
import { applyRecords, hashedRecords } from '../helpers/apply.js';
import { catalogOfFormat, generatedRecords, storedContents, type GeneratedRecord } from '../helpers/generated-catalog.js';
import { tempDir } from '../helpers/tmp.js';

const RECORD_DATABASES = ['tracks', 'artists', 'albums', ...CONTENT_KINDS];

/** Bytes of B-tree and overflow pages of one database. */
function pages(catalog: Catalog, name: string): number {
  const db = name === 'tracks' ? catalog.tracks : catalog.content[name as (typeof CONTENT_KINDS)[number]];
  const s = db.getStats() as { treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number; pageSize: number };
  return (s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages) * s.pageSize;
}

t.test('trainDictionary: at most the size asked, whole words of 8 bytes, made of what the samples repeat', async (t) => {
  const line = (i: number) => Buffer.from(`verse ${i % 7}: hold on to the song, hold on to me, don't let the candle fade away ${i}\n`);
  const samples = Array.from({ length: 400 }, (_, i) => Buffer.concat([line(i), line(i * 3), line(i * 5)]));
  const dictionary = trainDictionary(samples, 1000);
  t.ok(dictionary.length > 0 && dictionary.length <= 1000, `${dictionary.length} bytes`);
  t.equal(dictionary.length % 8, 0);
  t.ok(dictionary.includes('hold on to the song'), 'the passage every sample holds is in it');
  t.same(trainDictionary(samples, 1000), dictionary, 'the same samples train the same dictionary');
  const few = trainDictionary([Buffer.from('too little to learn from')], 1000);
  t.equal(few.toString(), 'too little to learn from', 'samples under twice the size: themselves, in whole 8-byte words');
  t.equal(trainDictionary([Buffer.from('too little to learn from!')], 1000).toString(), 'oo little to learn from!');
  t.same([...trainDictionary([], 8192)], [0, 0, 0, 0, 0, 0, 0, 0], 'none: 8 zero bytes (LMDB needs one)');
  const noise = Array.from({ length: 200 }, (_, i) => Buffer.from(Array.from({ length: 64 }, (_, j) => (i * 131 + j * 197 + ((i * j) % 251)) % 256)));
  t.ok(trainDictionary(noise, 512).length <= 512, 'samples that repeat nothing still give a bounded dictionary');
});

t.test('a new catalog trains a dictionary for each record database from its first records, and reads exactly what it wrote', async (t) => {
  const records = generatedRecords(300);
  const withDictionaries = Catalog.open(tempDir(t));
  const before = await catalogOfFormat(tempDir(t), 2);
  t.teardown(() => Promise.all([withDictionaries.close(), before.close()]));
  // The first batch trains; the batches after it are compressed against the same dictionaries.
  for (let i = 0; i < records.length; i += 500) {
    applyRecords(withDictionaries, records.slice(i, i + 500));
    applyRecords(before, records.slice(i, i + 500));
  }
  t.equal(withDictionaries.meta.get('catalog:format'), 3);
  for (const name of RECORD_DATABASES) {
    const dictionary = withDictionaries.meta.get(`catalog:dictionary:${name}`) as Uint8Array | undefined;
    t.ok(dictionary && dictionary.length > 0 && dictionary.length <= (['lyrics', 'analysis', 'richsync', 'translations'].includes(name) ? 8192 : 4096) && dictionary.length % 8 === 0, `${name}: a dictionary of ${dictionary?.length} bytes`);
  }
  t.same(storedContents(withDictionaries), storedContents(before), 'every record reads as the format-2 catalog holds it');
  const track = records.find((r) => r.type === 'track')!;
  t.equal(withDictionaries.getTrack(track.track_id!)?.track_id, track.track_id);
  for (const name of ['tracks', 'lyrics', 'analysis', 'snippets']) {
    t.ok(pages(withDictionaries, name) < 0.75 * pages(before, name), `${name}: ${pages(withDictionaries, name)} bytes of pages against ${pages(before, name)}`);
  }
  // Values are stored compressed (LMDB's LZ4 marks them with a first byte of 254).
  const raw = withDictionaries.root.openDB<Buffer, number>({ name: 'lyrics', keyEncoding: 'uint32', encoding: 'binary', compression: false } as never);
  const firstBytes = [...raw.getRange(everyId())].map(({ value }) => value[0]);
  t.ok(firstBytes.length > 100 && firstBytes.every((b) => b === 254), 'every lyric compressed');
});

t.test('a database first written after the others gets its dictionary then; one never written has none', async (t) => {
  const records = generatedRecords(60);
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  applyRecords(catalog, records.filter((r) => r.type === 'artist'));
  t.ok(catalog.meta.get('catalog:dictionary:artists'), 'artists: trained from the first batch');
  t.notOk(catalog.meta.get('catalog:dictionary:tracks'), 'tracks: none yet');
  t.equal(catalog.trackCount(), 0);
  applyRecords(catalog, records.filter((r) => r.type !== 'artist'));
  t.ok(catalog.meta.get('catalog:dictionary:tracks'));
  t.equal(catalog.trackCount(), records.filter((r) => r.type === 'track').length);
  const tiny = Catalog.open(tempDir(t));
  t.teardown(() => tiny.close());
  // A catalog begun with one track: dictionaries from a few hundred bytes (or none), still exact.
  const one = records.filter((r) => r.type !== 'track').concat(records.filter((r) => r.type === 'track').slice(0, 1));
  applyRecords(tiny, one);
  applyRecords(tiny, records.filter((r) => r.type === 'track').slice(1));
  t.same(storedContents(tiny), storedContents(catalog));
});

t.test('a reader opened before the first records reads them once they are committed', async (t) => {
  const dir = tempDir(t);
  const reader = Catalog.open(dir);
  const writer = Catalog.open(dir);
  t.teardown(() => Promise.all([reader.close(), writer.close()]));
  const records = generatedRecords(40);
  const track = records.find((r) => r.type === 'track')!;
  t.equal(reader.getTrack(track.track_id!), undefined, 'empty');
  t.equal(reader.getContent('lyrics', track.track_id!), undefined);
  applyRecords(writer, records);
  reader.refresh();
  t.same(reader.getTrack(track.track_id!), writer.getTrack(track.track_id!));
  t.same(reader.getContent('lyrics', track.track_id!), writer.getContent('lyrics', track.track_id!));
  t.ok(reader.getContent('lyrics', track.track_id!)?.lyrics_body, 'a lyric');
});

t.test('a format-2 catalog keeps its compression: no dictionaries, records as before', async (t) => {
  const dir = tempDir(t);
  const catalog = await catalogOfFormat(dir, 2);
  applyRecords(catalog, generatedRecords(40));
  t.equal(catalog.meta.get('catalog:format'), 2);
  for (const name of RECORD_DATABASES) t.notOk(catalog.meta.get(`catalog:dictionary:${name}`), name);
  const written = storedContents(catalog);
  await catalog.close();
  const again = Catalog.open(dir);
  t.teardown(() => again.close());
  t.equal(again.meta.get('catalog:format'), 2, 'still format 2 when opened again');
  t.same(storedContents(again), written, 'every record reads back as written');
});

for (const format of [3, 2]) {
  t.test(`format ${format}: a write transaction that does not commit leaves nothing behind, in the catalog or in the process`, async (t) => {
    const dir = tempDir(t);
    const catalog = format === 3 ? Catalog.open(dir) : await catalogOfFormat(dir, 2);
    t.teardown(() => catalog.close());
    const records = generatedRecords(40);
    t.throws(() => catalog.writeTransaction(() => {
      applyWithin(catalog, hashedRecords(records));
      if (format === 3) t.ok(catalog.meta.get('catalog:dictionary:tracks'), 'a dictionary set inside the transaction');
      throw new Error('a later write of the same transaction failed');
    }), /later write/);
    t.notOk(catalog.meta.get('catalog:dictionary:tracks'), 'none committed');
    t.equal(catalog.trackCount(), 0);
    // The next write (new dictionaries, new shared structures) commits; another handle reads every record.
    applyRecords(catalog, records);
    const other = Catalog.open(dir);
    t.teardown(() => other.close());
    const track = records.find((r) => r.type === 'track')!;
    t.same(other.getTrack(track.track_id!), catalog.getTrack(track.track_id!));
    t.ok(other.getContent('lyrics', track.track_id!)?.lyrics_body);
    t.same(storedContents(other), storedContents(catalog));
  });
}

t.test('records written after their database has its dictionary are compressed by the writer (util/lz4.ts) and read exactly', async (t) => {
  const records = generatedRecords(200);
  const catalog = Catalog.open(tempDir(t));
  const before = await catalogOfFormat(tempDir(t), 2);
  t.teardown(() => Promise.all([catalog.close(), before.close()]));
  // The first batch seals every database; the later ones (in small batches) go through recordWrites.
  for (const [from, to] of [[0, 60], [60, 120], [120, 180], [180, records.length]]) {
    applyRecords(catalog, records.slice(from, to));
    applyRecords(before, records.slice(from, to));
  }
  t.same(storedContents(catalog), storedContents(before), 'every record reads as the format-2 catalog holds it');
  const raw = catalog.root.openDB<Buffer, number>({ name: 'lyrics', keyEncoding: 'uint32', encoding: 'binary', compression: false } as never);
  const later = records.slice(120).filter((r) => r.type === 'track').map((r) => r.track_id!);
  const stored = later.map((id) => raw.getBinary(id)).filter((v): v is Buffer => !!v);
  t.ok(stored.length > 20 && stored.every((v) => v[0] === 254), `${stored.length} lyrics of the later batches stored compressed`);

  // A track changing its album's group and an album changed in the same batch as its tracks.
  const tracks = records.filter((r) => r.type === 'track') as (GeneratedRecord & Record<string, unknown>)[];
  const [a, b] = [tracks[0], tracks[tracks.length - 1]];
  const album = records.find((r) => r.type === 'album' && (r as Record<string, unknown>).album_id === b.album_id)!;
  const changes = [
    { ...b, commontrack_id: a.commontrack_id ?? a.track_id, track_isrc: 'QZ0000000001' },
    { ...album, album_name: 'Renamed Album', album_coverart_100x100: 'https://covers.example/renamed.jpg' },
    ...tracks.filter((t) => t.album_id === b.album_id && t.track_id !== b.track_id).map((t) => ({ ...t, album_coverart_100x100: '', album_name: '' })),
  ];
  applyRecords(catalog, changes);
  applyRecords(before, changes);
  t.same(storedContents(catalog), storedContents(before), 'after updates: the same records');
  t.same(catalog.getTrack(a.track_id!)?.commontrack_isrcs, catalog.getTrack(b.track_id!)?.commontrack_isrcs, 'the group shares its ISRCs');
  t.ok(catalog.getTrack(a.track_id!)?.commontrack_isrcs.includes('QZ0000000001'));
  const sibling = tracks.find((t) => t.album_id === b.album_id && t.track_id !== b.track_id);
  if (sibling) t.equal(catalog.getTrack(sibling.track_id!)?.album_name, 'Renamed Album', 'a track written after its album changed takes the new name');
});
