/**
 * A cache of rendered /ws/1.1/ answers (200 and 404) for GET methods that declare a cache scope.
 * Popular tracks make API traffic Zipf-shaped, so most lookups repeat; a hit skips the LMDB reads,
 * the presenters and the body's JSON serialisation (bench/http measures both paths).
 *
 * Correctness: entries are dropped as a whole when the catalog changes (the `CATALOG` epoch, which
 * the server's owner bumps when it sees the change-log sequence move: within 250 ms, or at once when
 * told: src/util/epochs.ts); an answer computed while the epoch moved is not kept; each entry lives
 * at most `ttlMs` (charts depend on
 * the date). A cache key holds the method, the canonical query and what the answer depends on about
 * the caller: plan and country for `shared` methods, the key itself for `key` methods (their
 * tracking URLs name the key).
 */
import type { EpochWatch } from '../util/epochs.js';

export interface CachedReply {
  status: number;
  header: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
  bodyBytes: Buffer;
  at: number;
}

export class ResponseCache {
  private entries = new Map<string, CachedReply>();
  /** Times the entries were dropped: an answer computed across a drop is not kept (`set`). */
  private drops = 0;

  /**
   * `refresh` makes this thread's reads see the latest commit; it runs when the epoch moved, before
   * any answer is computed again (on another thread than the one that saw the change, the read
   * snapshot could otherwise still be the one before it).
   */
  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly catalogChanged: EpochWatch,
    private readonly refresh: () => void = () => undefined,
  ) {}

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  /** Drops everything if the catalog changed since the last look; true then. */
  private stale(): boolean {
    if (!this.catalogChanged.moved()) return false;
    this.refresh();
    this.entries = new Map();
    this.drops++;
    return true;
  }

  /** The cache's state when an answer starts being computed: `set` takes it back. */
  get version(): number {
    this.stale();
    return this.drops;
  }

  get(key: string, now: number): CachedReply | undefined {
    this.stale();
    const hit = this.entries.get(key);
    if (hit && now - hit.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit;
  }

  /** Keeps an answer, unless the catalog changed since `version` was read before computing it (it may predate the change). */
  set(key: string, reply: CachedReply, version: number): void {
    if (this.stale() || version !== this.drops) return;
    if (this.entries.size >= this.maxEntries) {
      // Evict the oldest insertion (Map keeps insertion order): cheap, and good enough for Zipf traffic.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, reply);
  }

  get size(): number {
    return this.entries.size;
  }
}
