/**
 * What feeds hold: a full feed imported into an empty data directory reproduces the catalog (every
 * record, content and index); an incremental feed holds exactly the records changed since the
 * previous feed, each once, deletes included, and applying it brings the copy level again.
 */
import t from 'tap';
import path from 'node:path';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { buildFeed } from '../../src/feeds/build.js';
import { feedsDir, FeedStore } from '../../src/feeds/store.js';
import { linesOf } from '../../src/catalog/lines.js';
import { generateCatalog } from '../../src/generate/index.js';
import { FIXTURE_RECORDS, TRACKS } from '../helpers/fixtures.js';
import { catalogState } from '../helpers/catalog-state.js';
import { tempDir, writeJsonl } from '../helpers/tmp.js';

async function feedLines(dataDir: string, file: string): Promise<string[]> {
  const out: string[] = [];
  for await (const { text } of linesOf(path.join(feedsDir(dataDir), file))) out.push(text);
  return out;
}

t.test('a full feed reproduces the catalog; an incremental one carries exactly the changes', async (t) => {
  const primaryDir = tempDir(t);
  const replicaDir = tempDir(t);
  const primary = Catalog.open(primaryDir);
  const replica = Catalog.open(replicaDir);
  t.teardown(async () => {
    await primary.close();
    await replica.close();
  });
  // The fixtures (every kind of content and restriction, derived artist and album records) and a
  // generated catalog (richsync, subtitles, analyses, commontrack groups at scale).
  const generated = [...generateCatalog({ tracks: 300, seed: 11 }).lines];
  await importFiles(primary, [writeJsonl(primaryDir, 'fixtures.jsonl', FIXTURE_RECORDS), writeJsonl(primaryDir, 'generated.jsonl', generated)]);
  // A track whose artist and album exist only as records derived from it.
  await importFiles(primary, [writeJsonl(primaryDir, 'derived.jsonl', [
    { type: 'track', track_id: 9, track_name: 'Alone', artist_id: 900, artist_name: 'Derived Artist', album_id: 9000, album_name: 'Derived Album', lyrics: { lyrics_body: '   ' } },
  ])]);

  const full = await buildFeed(primaryDir, primary, { kind: 'full', now: Date.parse('2026-11-22T03:00:00Z') });
  t.ok(full);
  t.match(full, { id: 1, created: '2026-11-22T03:00:00Z', full: true, fromSeq: 0, toSeq: primary.lastChange(), file: 'feed-000001-full.jsonl.gz' });
  const lines = await feedLines(primaryDir, full!.file);
  t.equal(full!.records, lines.length);
  const counts = (type: string) => lines.filter((l) => l.startsWith(`{"type":"${type}"`)).length;
  t.equal(counts('track'), primary.trackCount(), 'every track');
  t.equal(counts('artist'), primary.artists.getKeysCount({ start: 1, end: 0xffff_ffff }), 'every artist');
  t.equal(counts('album'), primary.albums.getKeysCount({ start: 1, end: 0xffff_ffff }), 'every album');
  const first = JSON.parse(lines.find((l) => l.includes('"track_id":1,'))!);
  t.same(Object.keys(first).slice(0, 2), ['type', 'track_id']);
  t.ok(first.lyrics && first.subtitle && first.richsync && first.snippet && first.analysis, 'a track line carries all its content');
  t.notOk('hash' in first || 'has_lyrics' in first || 'share_path' in first, 'and nothing import derives');

  await importFiles(replica, [path.join(feedsDir(primaryDir), full!.file)]);
  t.same(catalogState(replica), catalogState(primary), 'importing the full feed into an empty directory reproduces the catalog');
  const stored = replica.getTrack(TRACKS[0].track_id)!;
  t.equal(stored.updated_time, primary.getTrack(TRACKS[0].track_id)!.updated_time, 'updated_time travels with the record');

  // Changes: new tracks, an update (twice), a delete, an album delete (cascades to its tracks), an artist delete.
  const [g1, g2] = generated.map((l) => JSON.parse(l)).filter((r) => r.type === 'track');
  const seqBefore = primary.lastChange();
  await importFiles(primary, [writeJsonl(primaryDir, 'changes.jsonl', [
    { type: 'track', track_id: 7001, track_name: 'New One', artist_id: 100, artist_name: 'The Fixtures', lyrics: { lyrics_body: 'fresh words' } },
    { type: 'track', track_id: 7002, track_name: 'New Two', artist_id: 7100, artist_name: 'New Artist', album_id: 7200 },
    { ...TRACKS[0], track_name: 'Full Song (remastered)' },
    { ...TRACKS[0], track_name: 'Full Song (remastered 2)' },
    { ...TRACKS[1], track_name: 'Full Song (Live, remastered)' }, // then deleted with its album
    { type: 'delete', track_id: TRACKS[4].track_id },
    { type: 'delete', album_id: 1001 },
    { type: 'delete', artist_id: 200 },
    { ...g1, track_rating: 99 },
    { type: 'delete', track_id: g2.track_id },
  ])]);
  const incremental = await buildFeed(primaryDir, primary, { kind: 'incremental', now: Date.parse('2026-11-22T04:00:00Z') });
  t.match(incremental, { id: 2, full: false, fromSeq: full!.toSeq, toSeq: primary.lastChange() });
  t.ok(incremental!.fromSeq === seqBefore, 'it starts where the full feed ended');
  const changed = await feedLines(primaryDir, incremental!.file);
  t.same(changed.map((l) => JSON.parse(l)).map((r) => `${r.type}:${r.track_id ?? r.album_id ?? r.artist_id}`), [
    // Deletes first: tracks (track 2 with its album, track 6 with its artist), albums, artists.
    'delete:2', `delete:${TRACKS[4].track_id}`, 'delete:6', `delete:${g2.track_id}`, 'delete:1001', 'delete:200',
    // Then upserts: artists, albums, tracks; track 1 once although it changed twice.
    'artist:7100', 'album:7200', 'track:1', 'track:7001', 'track:7002', `track:${g1.track_id}`,
  ], 'each changed record once, deletes first');
  t.match(JSON.parse(changed.find((l) => l.startsWith('{"type":"track","track_id":1,'))!), { track_name: 'Full Song (remastered 2)' }, 'as it is now');
  t.equal(changed[0], '{"type":"delete","track_id":2}', "a delete is the import format's");

  await importFiles(replica, [path.join(feedsDir(primaryDir), incremental!.file)]);
  t.same(catalogState(replica), catalogState(primary), 'applying the incremental feed brings the copy level again');

  t.equal(await buildFeed(primaryDir, primary, { kind: 'incremental', now: Date.now() }), undefined, 'no change since: no incremental feed');
  t.same(new FeedStore(primary.root).current().map((f) => f.id), [1, 2]);
});

t.test('an incremental feed needs a full one before it', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  await t.rejects(buildFeed(dir, catalog, { kind: 'incremental', now: Date.now() }), { message: /build --full/ });
});
