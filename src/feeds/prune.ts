/**
 * Retention: feeds older than the retention period are removed, except the latest full feed and
 * every feed after it (what tracks.dump.get lists must stay downloadable, however old). The
 * metadata goes first, so a feed is never listed without its file; a download already running
 * finishes (the open file outlives its name). Feed files that no metadata names — a build that
 * crashed between rename and commit — are removed too. The caller holds the feed lock.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { feedIdOf, feedsDir, type FeedMeta, type FeedStore } from './store.js';

/** The feeds past retention at `now` (pure). */
export function expiredFeeds(feeds: readonly FeedMeta[], now: number, retentionSeconds: number): FeedMeta[] {
  let latestFull = 0;
  for (const f of feeds) if (f.full && f.id > latestFull) latestFull = f.id;
  return feeds.filter((f) => f.id < latestFull && Date.parse(f.created) + retentionSeconds * 1000 <= now);
}

/** Remove expired feeds and orphaned files; returns the removed feeds. */
export async function pruneFeeds(dataDir: string, store: FeedStore, now: number, retentionSeconds: number): Promise<FeedMeta[]> {
  store.refresh();
  const feeds = store.all();
  const expired = expiredFeeds(feeds, now, retentionSeconds);
  const dir = feedsDir(dataDir);
  for (const f of expired) {
    await store.remove(f.id);
    rmSync(path.join(dir, f.file), { force: true });
  }
  const listed = new Set(feeds.filter((f) => !expired.includes(f)).map((f) => f.file));
  for (const name of readdirSync(dir)) {
    if (feedIdOf(name) !== undefined && !listed.has(name)) rmSync(path.join(dir, name), { force: true });
  }
  return expired;
}
