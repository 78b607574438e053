/**
 * Per-key admission: the daily quota (402 when spent) and the rate limit (429 with Retry-After).
 * Counting happens in memory on the hot path; daily counts are written to LMDB every few seconds
 * and on shutdown so a restart does not hand out a fresh quota.
 */
import type { Database, RootDatabase } from 'lmdb';
import { RefrainError } from '../errors.js';
import { utcDay } from '../util/date.js';
import type { KeyRecord } from './keys.js';

interface DayCount {
  day: number;
  count: number;
  /** Requests not yet written to LMDB. */
  unsaved: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class Usage {
  private readonly db: Database<number, string>;
  private readonly days = new Map<string, DayCount>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(root: RootDatabase) {
    this.db = root.openDB<number, string>({ name: 'usage' });
  }

  /** Count one request of `key` at `now`, or throw 402 / 429. Returns the requests left today, when the key has a quota. */
  admit(key: KeyRecord, now: number): number | undefined {
    if (key.rate > 0) this.takeToken(key, now);
    if (key.quota > 0) {
      const day = this.dayCount(key.key_id, utcDay(now));
      if (day.count >= key.quota) {
        throw new RefrainError('quota_exceeded', `daily quota of ${key.quota} requests reached; it renews at 00:00 UTC`, { 'x-refrain-quota-remaining': '0' });
      }
      day.count++;
      day.unsaved++;
      return key.quota - day.count;
    }
    return undefined;
  }

  /** Requests counted today for a key (for tests and `keys list`). */
  today(keyId: string, now: number): number {
    return this.dayCount(keyId, utcDay(now)).count;
  }

  private dayCount(keyId: string, day: number): DayCount {
    let d = this.days.get(keyId);
    if (!d || d.day !== day) {
      d = { day, count: this.db.get(`${keyId}:${day}`) ?? 0, unsaved: 0 };
      this.days.set(keyId, d);
    }
    return d;
  }

  /** Token bucket: `rate` requests per minute, bursting up to `rate`. */
  private takeToken(key: KeyRecord, now: number): void {
    const perMs = key.rate / 60_000;
    let b = this.buckets.get(key.key_id);
    if (!b) {
      b = { tokens: key.rate, at: now };
      this.buckets.set(key.key_id, b);
    }
    b.tokens = Math.min(key.rate, b.tokens + (now - b.at) * perMs);
    b.at = now;
    if (b.tokens < 1) {
      const wait = Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000));
      throw new RefrainError('rate_limited', `rate limit of ${key.rate} requests per minute exceeded; retry in ${wait} s`, {
        'Retry-After': String(wait),
      });
    }
    b.tokens -= 1;
  }

  /** Write unsaved counts (one async LMDB transaction). */
  async flush(): Promise<void> {
    const pending = [...this.days].filter(([, d]) => d.unsaved > 0);
    if (pending.length === 0) return;
    for (const [, d] of pending) d.unsaved = 0;
    await this.db.transaction(() => {
      for (const [keyId, d] of pending) this.db.put(`${keyId}:${d.day}`, d.count);
    });
  }
}
