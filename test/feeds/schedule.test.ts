/**
 * The serve-time schedule (src/feeds/schedule.ts): when each kind of feed is due; the first start
 * builds a full feed; large catalogs are written by a worker thread; one builder at a time.
 */
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { nextBuild, FeedSchedule, type ScheduleOptions } from '../../src/feeds/schedule.js';
import { tryLock } from '../../src/util/lock-file.js';
import { buildLockFile } from '../../src/feeds/store.js';
import { FeedStore, type FeedMeta } from '../../src/feeds/store.js';
import { createLogger } from '../../src/log.js';
import { startTestServer } from '../helpers/server.js';
import { FIXTURE_RECORDS } from '../helpers/fixtures.js';
import { tempDir, writeJsonl } from '../helpers/tmp.js';

const OPTIONS: ScheduleOptions = { fullEvery: 86_400, incrementalEvery: 3600, retention: 7 * 86_400 };
const at = (iso: string) => Date.parse(iso);
const meta = (id: number, full: boolean, created: string) => ({ id, full, created }) as FeedMeta;

t.test('when the next feed is due', async (t) => {
  const never = { full: 0, incremental: 0 };
  t.same(nextBuild(undefined, undefined, never, OPTIONS), { kind: 'full', at: 0 }, 'no full feed yet: one now');
  const full = meta(1, true, '2026-11-22T03:00:00Z');
  t.same(nextBuild(full, full, never, OPTIONS), { kind: 'incremental', at: at('2026-11-22T04:00:00Z') }, 'an hour after the latest feed');
  const inc = meta(24, false, '2026-11-23T02:00:00Z');
  t.same(nextBuild(full, inc, never, OPTIONS), { kind: 'full', at: at('2026-11-23T03:00:00Z') }, 'a day after the full feed wins over the hourly one');
  t.same(nextBuild(full, full, { full: 0, incremental: at('2026-11-22T05:00:00Z') }, OPTIONS), { kind: 'incremental', at: at('2026-11-22T06:00:00Z') }, 'after a check that found no change, an hour after the check');
  t.same(nextBuild(full, inc, { full: at('2026-11-23T03:00:00Z'), incremental: at('2026-11-23T03:00:00Z') }, OPTIONS), { kind: 'incremental', at: at('2026-11-23T04:00:00Z') }, 'a skipped full feed waits another day');
});

t.test('the first start builds a full feed', async (t) => {
  const s = await startTestServer(t);
  await s.server.feeds.schedule.idle();
  const listing = await s.get('/ws/1.1/tracks.dump.get', { apikey: s.keys.enterprise });
  t.match(listing.json.message.body, [{ id: 1, full: true }]);
});

t.test('a worker thread writes large feeds; one builder at a time', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  await importFiles(catalog, [writeJsonl(dir, 'f.jsonl', FIXTURE_RECORDS)]);
  const store = new FeedStore(catalog.root);
  const schedule = new FeedSchedule({
    dataDir: dir, catalog, store, logger: createLogger('silent'), clock: Date.now, options: { ...OPTIONS, inProcessMaxTracks: 0 },
  });
  const feeds: FeedMeta[] = [];
  schedule.on('feed', (f: FeedMeta) => feeds.push(f));

  const release = tryLock(buildLockFile(dir))!;
  t.ok(release, 'the lock');
  t.equal(tryLock(buildLockFile(dir)), undefined, 'is held');
  t.equal(await schedule.build('full'), undefined, 'no build while another builder holds the lock');
  release();

  const built = await schedule.build('full');
  t.match(built, { id: 1, full: true, records: 10 }, 'built by the worker thread');
  t.same(store.all(), [built], 'and recorded');
  t.same(feeds, [built], "'feed' event");
  t.equal(await schedule.build('full'), undefined, 'nothing changed: no second full feed');
  await schedule.close();

  writeFileSync(buildLockFile(dir), '999999999');
  t.ok(tryLock(buildLockFile(dir)), "a dead holder's lock is taken over");
});
