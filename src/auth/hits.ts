/**
 * Hits on tracking URLs, per key, track and content kind, counted in memory and added to LMDB
 * (`hits`: [key_id, track_id, content] → count) every few seconds and on shutdown.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { TrackedContent, TrackingHit } from '../api/links.js';

type HitKey = [string, number, TrackedContent];

export class Hits {
  private readonly db: Database<number, HitKey>;
  private pending = new Map<string, { key: HitKey; n: number }>();

  constructor(root: RootDatabase) {
    this.db = root.openDB<number, HitKey>({ name: 'hits' });
  }

  record(hit: TrackingHit): void {
    const id = `${hit.keyId}\u0000${hit.trackId}\u0000${hit.content}`;
    const entry = this.pending.get(id);
    if (entry) entry.n++;
    else this.pending.set(id, { key: [hit.keyId, hit.trackId, hit.content], n: 1 });
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
