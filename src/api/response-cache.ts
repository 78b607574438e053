/**
 * A cache of rendered /ws/1.1/ answers (200 and 404) for GET methods that declare a cache scope.
 * Popular tracks make API traffic Zipf-shaped, so most lookups repeat; a hit skips the LMDB reads,
 * the presenters and the body's JSON serialisation (bench/http measures both paths).
 *
 * Correctness: entries are dropped as a whole when the catalog changes (the change-log sequence is
 * polled, so a change shows within `pollMs`), and each entry lives at most `ttlMs` (charts depend on
 * the date). A cache key holds the method, the canonical query and what the answer depends on about
 * the caller: plan and country for `shared` methods, the key itself for `key` methods (their
 * tracking URLs name the key).
 */
import { watchVersion, type VersionWatch } from '../util/version-watch.js';

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
  private readonly watch: VersionWatch | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    catalogVersion: () => number,
    pollMs = 250,
  ) {
    if (maxEntries > 0) this.watch = watchVersion(catalogVersion, () => (this.entries = new Map()), pollMs);
  }

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  /** Drop everything if the catalog changed since the last look. */
  checkVersion(): void {
    this.watch?.check();
  }

  get(key: string, now: number): CachedReply | undefined {
    const hit = this.entries.get(key);
    if (hit && now - hit.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit;
  }

  set(key: string, reply: CachedReply): void {
    if (this.entries.size >= this.maxEntries) {
      // Evict the oldest insertion (Map keeps insertion order): cheap, and good enough for Zipf traffic.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, reply);
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    this.watch?.close();
  }
}
