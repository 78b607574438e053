/**
 * Retention (src/feeds/prune.ts): superseded feeds go after the retention period; the latest full
 * feed and every feed after it stay whatever their age; files no metadata names are removed.
 */
import t from 'tap';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Catalog } from '../../src/catalog/store.js';
import { expiredFeeds, pruneFeeds } from '../../src/feeds/prune.js';
import { feedFileName, feedsDir, FeedStore, type FeedMeta } from '../../src/feeds/store.js';
import { tempDir } from '../helpers/tmp.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T03:00:00Z');

function feed(id: number, full: boolean, at: number): FeedMeta {
  return { id, created: new Date(at).toISOString().replace(/\.\d+Z$/, 'Z'), full, fromSeq: 0, toSeq: id, file: feedFileName(id, full), bytes: 1, sha256: '', records: 0 };
}

// Two weeks of daily full feeds, each followed by two incremental ones.
const FEEDS = Array.from({ length: 14 }, (_, d) => [feed(3 * d + 1, true, T0 + d * DAY), feed(3 * d + 2, false, T0 + d * DAY + 3_600_000), feed(3 * d + 3, false, T0 + d * DAY + 7_200_000)]).flat();

t.test('which feeds expire', async (t) => {
  const now = T0 + 14 * DAY - 1;
  const expired = expiredFeeds(FEEDS, now, 7 * 86_400);
  t.same(expired.map((f) => f.id), Array.from({ length: 21 }, (_, i) => i + 1), 'the first seven days');
  t.same(expiredFeeds(FEEDS, now + 365 * DAY, 7 * 86_400).map((f) => f.id).at(-1), 39, 'never the latest full feed (40) nor those after it');
  t.same(expiredFeeds(FEEDS.filter((f) => !f.full), now + 365 * DAY, 0), [], 'without a full feed nothing goes');
  t.same(expiredFeeds(FEEDS.slice(0, 6), T0 + DAY + 3_600_000, 0).map((f) => f.id), [1, 2, 3], 'retention 0: everything before the latest full feed');
});

t.test('pruning removes metadata, files and orphans', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const store = new FeedStore(catalog.root);
  mkdirSync(feedsDir(dir), { recursive: true });
  for (const f of FEEDS.slice(0, 6)) {
    await store.add(f);
    writeFileSync(path.join(feedsDir(dir), f.file), 'x');
  }
  const orphan = path.join(feedsDir(dir), feedFileName(99, true));
  writeFileSync(orphan, 'left by a build that crashed before recording it');
  const other = path.join(feedsDir(dir), 'build.lock');
  writeFileSync(other, '1');
  const removed = await pruneFeeds(dir, store, T0 + 30 * DAY, 7 * 86_400);
  t.same(removed.map((f) => f.id), [1, 2, 3]);
  t.same(store.all().map((f) => f.id), [4, 5, 6]);
  for (const f of FEEDS.slice(0, 6)) t.equal(existsSync(path.join(feedsDir(dir), f.file)), f.id > 3, f.file);
  t.notOk(existsSync(orphan), 'the orphaned file');
  t.ok(existsSync(other), 'other files stay');
});
