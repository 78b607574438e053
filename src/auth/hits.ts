/**
 * Hits on tracking URLs, per key, track and content kind, counted in memory and added to LMDB
 * (`hits`: [key_id, track_id, content] → count) every few seconds and on shutdown.
 *
 * A repeat of the same token from the same client address within the replay window counts once
 * (page reloads, a pixel and a script fired for one view, replays): the table of recent
 * (address, token) pairs holds fixed-size hashes, is purged as the window passes, and when full
 * drops its oldest entries, so its memory is bounded whatever the traffic (about 100 bytes an entry).
 */
import type { Database, RootDatabase } from 'lmdb';
import { xxh64 } from '@node-rs/xxhash';

/** What a tracking URL counts a hit for (src/api/links.ts makes and verifies the URLs). */
export type TrackedContent = 'lyrics' | 'subtitle' | 'richsync' | 'snippet' | 'lyrics_translation' | 'subtitle_translation';

/** A verified tracking token: whose hit, on which track's content, counting until when. */
export interface TrackingHit {
  keyId: string;
  trackId: number;
  content: TrackedContent;
  /** When the token stops counting, in ms since the epoch. */
  expires: number;
}

type HitKey = [string, number, TrackedContent];

export interface ReplayLimits {
  /** A repeat within this many ms of the first hit counts once. */
  windowMs: number;
  /** (address, token) pairs remembered at most; 0 turns deduplication off. */
  maxEntries: number;
}

/** 1 hour, 200,000 pairs (`--tracking-replay-window`, `--tracking-dedupe-entries`). */
export const DEFAULT_REPLAY_LIMITS: ReplayLimits = { windowMs: 3600_000, maxEntries: 200_000 };

/**
 * Recent (address, token) pairs as 64-bit hashes → when their window ends. Every entry gets the same
 * window, so insertion order is expiry order: expired entries are always at the front.
 */
export class ReplayWindow {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly limits: ReplayLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  /** True when this pair was not seen within the window (and remembers it from now). */
  first(address: string, token: string): boolean {
    if (this.limits.maxEntries === 0) return true;
    const now = this.clock();
    this.purge(now);
    const id = xxh64(`${address}\u0000${token}`).toString(36);
    const until = this.seen.get(id);
    if (until !== undefined && until > now) return false;
    this.seen.delete(id);
    while (this.seen.size >= this.limits.maxEntries) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(id, now + this.limits.windowMs);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  private purge(now: number): void {
    for (const [id, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(id);
    }
  }
}

const EXPIRING_SINCE = 'tracking:expiring-since';

/**
 * Recording hits as the tracking URLs do: the Hits on the thread that owns them, or asked over a
 * thread hop (an HTTP thread of several: src/front-worker.ts), hence the promise. One owner keeps
 * one replay window, so a repeat is a repeat on whichever thread it arrives.
 */
export interface HitRecorder {
  record(hit: TrackingHit, address: string, token: string): boolean | Promise<boolean>;
}

export class Hits implements HitRecorder {
  private readonly db: Database<number, HitKey>;
  private pending = new Map<string, { key: HitKey; n: number }>();
  readonly replays: ReplayWindow;

  constructor(
    private readonly root: RootDatabase,
    limits: ReplayLimits = DEFAULT_REPLAY_LIMITS,
    clock: () => number = Date.now,
  ) {
    this.db = root.openDB<number, HitKey>({ name: 'hits' });
    this.replays = new ReplayWindow(limits, clock);
  }

  /**
   * When this data directory first served expiring tracking tokens (ms since the epoch), stored on
   * the first call: tokens without an expiry are older than it.
   */
  expiringSince(now: number): number {
    const meta = this.root.openDB<unknown, string>({ name: 'meta' });
    const since = meta.get(EXPIRING_SINCE);
    if (typeof since === 'number') return since;
    meta.putSync(EXPIRING_SINCE, now);
    return now;
  }

  /** Count a hit unless the same address sent the same token within the window; true when counted. */
  record(hit: TrackingHit, address: string, token: string): boolean {
    if (!this.replays.first(address, token)) return false;
    const id = `${hit.keyId}\u0000${hit.trackId}\u0000${hit.content}`;
    const entry = this.pending.get(id);
    if (entry) entry.n++;
    else this.pending.set(id, { key: [hit.keyId, hit.trackId, hit.content], n: 1 });
    return true;
  }

  /** Hits of one key on one track, by content kind (saved and pending). */
  count(keyId: string, trackId: number): Partial<Record<TrackedContent, number>> {
    const out: Partial<Record<TrackedContent, number>> = {};
    for (const { key, value } of this.db.getRange({ start: [keyId, trackId], end: [keyId, trackId + 1] })) {
      out[key[2]] = (out[key[2]] ?? 0) + value;
    }
    for (const { key, n } of this.pending.values()) {
      if (key[0] === keyId && key[1] === trackId) out[key[2]] = (out[key[2]] ?? 0) + n;
    }
    return out;
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    await this.db.transaction(() => {
      for (const { key, n } of batch) this.db.put(key, (this.db.get(key) ?? 0) + n);
    });
  }
}
