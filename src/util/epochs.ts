/**
 * Invalidation across threads. Each source of truth a cache depends on has an epoch: a word in
 * shared memory that the thread owning the server bumps when the source changes (its poller notices
 * within a period, or at once when asked), and that a cache on any thread compares on use, one
 * atomic load, dropping what it holds when the word moved. With one HTTP thread this is the same
 * poll as before, run once for every cache; with several (docs/http-threads-plan.md) a revoked key
 * or a new import reaches every thread at the same moment.
 */
import { watchVersion, type VersionWatch } from './version-watch.js';

/** The epochs: API keys and OAuth clients; the catalog (the response cache). */
export const KEYS = 0;
export const CATALOG = 1;
const WORDS = 2;

export type Epoch = typeof KEYS | typeof CATALOG;

export class Epochs {
  private readonly words: Int32Array;

  /** New words, or this thread's view of `buffer` (another thread's `Epochs.buffer`). */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(WORDS * 4)) {
    this.words = new Int32Array(buffer);
  }

  read(epoch: Epoch): number {
    return Atomics.load(this.words, epoch);
  }

  bump(epoch: Epoch): void {
    Atomics.add(this.words, epoch, 1);
  }

  /** Follows `epoch` from now on (each thread's cache has its own). */
  watch(epoch: Epoch): EpochWatch {
    return new EpochWatch(this, epoch);
  }

  /** Bumps `epoch` whenever `version` moves, looking every `everyMs` and whenever `check` is called. */
  poll(epoch: Epoch, version: () => number, everyMs: number): VersionWatch {
    return watchVersion(version, () => this.bump(epoch), everyMs);
  }
}

/** One cache's view of an epoch: `moved()` is true once after each bump. */
export class EpochWatch {
  private seen: number;

  constructor(
    private readonly epochs: Epochs,
    private readonly epoch: Epoch,
  ) {
    this.seen = epochs.read(epoch);
  }

  moved(): boolean {
    const now = this.epochs.read(this.epoch);
    if (now === this.seen) return false;
    this.seen = now;
    return true;
  }
}
