/**
 * Per-key admission: the daily quota (402 when spent) and the rate limit (429 with Retry-After).
 *
 * The counts live in a table in shared memory (`UsageTable`), so every thread that admits requests
 * (the HTTP threads of `--http-threads`, docs/http-threads-plan.md) counts against the same quota
 * and rate, exactly, whatever the interleaving: each is one compare-and-swap on one 64-bit word.
 * - Quota: the word packs the UTC day and that day's count. A day the slot has not seen yet starts
 *   from what LMDB holds for it (a restart hands out no fresh quota).
 * - Rate: a token bucket of `rate` requests refilled over a minute, kept as the generic cell rate
 *   algorithm's "theoretical arrival time" (one word instead of tokens and a time), in units of
 *   1/rate ms so a burst is exact in integers.
 * Daily counts are written to LMDB every few seconds and on shutdown, by the thread that owns the
 * server (`flush`); what was counted since the last flush is lost with the process.
 */
import type { Database, RootDatabase } from 'lmdb';
import { xxh64 } from '@node-rs/xxhash';
import { RefrainError } from '../errors.js';
import { utcDay } from '../util/date.js';
import type { KeyRecord } from './keys.js';

/** Bytes of a key id a slot holds (ours are at most 24: `oauth:c_` and 16 hex digits). */
const NAME_BYTES = 40;
/** Bytes per slot: tag, quota word, arrival time (8 each), rate and name length (4 each), name. */
const SLOT_BYTES = 8 * 3 + 4 * 2 + NAME_BYTES;
/** Slots of a table by default: 4.5 MiB; every key admitted since start takes one. */
export const DEFAULT_USAGE_SLOTS = 65_536;
/** Milliseconds the rate's period lasts: `rate` requests per minute. */
const PERIOD_MS = 60_000n;
const DAY_SHIFT = 32n;
const COUNT_MASK = 0xffff_ffffn;

/**
 * The shared table: `slots` slots (a power of two), each claimed by one key id for the life of the
 * process, found by a 64-bit hash of the id and linear probing. Views over one SharedArrayBuffer,
 * which any thread may wrap (`UsageTable.over`).
 */
export class UsageTable {
  /** The key id's hash with the low bit set (0 marks a free slot). */
  private readonly tags: BigInt64Array;
  /** `day << 32 | count` of the day last counted; 0 before the first. */
  readonly quota: BigInt64Array;
  /** The rate's theoretical arrival time, in ms × rate (0: a full burst is available). */
  readonly tat: BigInt64Array;
  /** The rate `tat` is scaled by. */
  readonly rate: Int32Array;
  /** Length of the name written in the slot; 0 until its claimer wrote it. */
  private readonly nameLength: Int32Array;
  private readonly names: Uint8Array;
  readonly slots: number;
  /** Key id → slot, for this thread. */
  private readonly local = new Map<string, number>();

  private constructor(readonly buffer: SharedArrayBuffer) {
    const slots = buffer.byteLength / SLOT_BYTES;
    if (!Number.isInteger(slots) || slots < 1 || (slots & (slots - 1)) !== 0) throw new RangeError(`a usage table has a power of two slots of ${SLOT_BYTES} bytes (got ${buffer.byteLength} bytes)`);
    this.slots = slots;
    this.tags = new BigInt64Array(buffer, 0, slots);
    this.quota = new BigInt64Array(buffer, 8 * slots, slots);
    this.tat = new BigInt64Array(buffer, 16 * slots, slots);
    this.rate = new Int32Array(buffer, 24 * slots, slots);
    this.nameLength = new Int32Array(buffer, 28 * slots, slots);
    this.names = new Uint8Array(buffer, 32 * slots, NAME_BYTES * slots);
  }

  /** A new table with room for `slots` keys (rounded up to a power of two). */
  static create(slots = DEFAULT_USAGE_SLOTS): UsageTable {
    const n = 2 ** Math.ceil(Math.log2(Math.max(slots, 2)));
    return new UsageTable(new SharedArrayBuffer(n * SLOT_BYTES));
  }

  /** This thread's view of a table made by `create` (its `buffer`, passed to the thread). */
  static over(buffer: SharedArrayBuffer): UsageTable {
    return new UsageTable(buffer);
  }

  /** The slot of a key id, claimed now if it has none; throws 503 when every slot is taken. */
  slotOf(keyId: string): number {
    const known = this.local.get(keyId);
    if (known !== undefined) return known;
    const slot = this.find(keyId, true);
    if (slot < 0) {
      throw new RefrainError('busy', `the usage table is full (${this.slots.toLocaleString('en')} keys since start); restart the server to clear it`, { 'Retry-After': '60' });
    }
    this.local.set(keyId, slot);
    return slot;
  }

  /** The slot of a key id if it has one (nothing is claimed). */
  existing(keyId: string): number | undefined {
    const slot = this.local.get(keyId) ?? this.find(keyId, false);
    return slot < 0 ? undefined : slot;
  }

  /** Each claimed slot with its key id. */
  *claimed(): Generator<[slot: number, keyId: string]> {
    for (let slot = 0; slot < this.slots; slot++) {
      const length = Atomics.load(this.nameLength, slot);
      if (length > 0) yield [slot, this.nameAt(slot, length)];
    }
  }

  private find(keyId: string, claim: boolean): number {
    const name = Buffer.from(keyId);
    if (name.length > NAME_BYTES) throw new RefrainError('internal', `key id ${keyId} is longer than ${NAME_BYTES} bytes`);
    // Signed, as the BigInt64Array gives it back (xxh64 is unsigned: half the tags would never match).
    const tag = BigInt.asIntN(64, xxh64(name) | 1n);
    const mask = this.slots - 1;
    let slot = Number(tag & BigInt(mask));
    for (let probe = 0; probe < this.slots; probe++, slot = (slot + 1) & mask) {
      let seen = Atomics.load(this.tags, slot);
      if (seen === 0n) {
        if (!claim) return -1;
        seen = Atomics.compareExchange(this.tags, slot, 0n, tag);
        if (seen === 0n) {
          this.names.set(name, slot * NAME_BYTES);
          Atomics.store(this.nameLength, slot, name.length);
          return slot;
        }
      }
      if (seen === tag && this.nameIs(slot, name)) return slot;
    }
    return -1;
  }

  /** Whether the slot holds `name` (waiting the moment its claimer takes to write it). */
  private nameIs(slot: number, name: Buffer): boolean {
    let length = Atomics.load(this.nameLength, slot);
    while (length === 0) length = Atomics.load(this.nameLength, slot);
    return length === name.length && Buffer.compare(name, this.names.subarray(slot * NAME_BYTES, slot * NAME_BYTES + length)) === 0;
  }

  private nameAt(slot: number, length: number): string {
    return Buffer.from(this.names.buffer, this.names.byteOffset + slot * NAME_BYTES, length).toString();
  }
}

const pack = (day: number, count: number): bigint => (BigInt(day) << DAY_SHIFT) | BigInt(count);
const dayOf = (word: bigint): number => Number(word >> DAY_SHIFT);
const countOf = (word: bigint): number => Number(word & COUNT_MASK);

export class Usage {
  private readonly db: Database<number, string>;
  readonly table: UsageTable;
  /** Per slot, the quota word last written to LMDB (flush). */
  private readonly saved = new Map<number, bigint>();

  /** Over a new table, or over `table` shared with other threads. */
  constructor(root: RootDatabase, table: UsageTable = UsageTable.create()) {
    this.db = root.openDB<number, string>({ name: 'usage' });
    this.table = table;
  }

  /** Count one request of `key` at `now`, or throw 402 / 429. Returns the requests left today, when the key has a quota. */
  admit(key: KeyRecord, now: number): number | undefined {
    if (key.rate <= 0 && key.quota <= 0) return undefined;
    const slot = this.table.slotOf(key.key_id);
    if (key.rate > 0) this.takeToken(slot, key.rate, now);
    if (key.quota <= 0) return undefined;
    const { quota } = this.table;
    for (;;) {
      const word = Atomics.load(quota, slot);
      // A request stamped just before midnight that runs after another thread moved the slot to the
      // new day counts in the new day: the word never goes back a day (its counts would be lost).
      const today = word === 0n ? utcDay(now) : Math.max(utcDay(now), dayOf(word));
      const count = word !== 0n && dayOf(word) === today ? countOf(word) : this.stored(key.key_id, today);
      if (count >= key.quota) {
        throw new RefrainError('quota_exceeded', `daily quota of ${key.quota} requests reached; it renews at 00:00 UTC`, { 'x-refrain-quota-remaining': '0' });
      }
      if (Atomics.compareExchange(quota, slot, word, pack(today, count + 1)) === word) return key.quota - count - 1;
    }
  }

  /** Requests counted today for a key (for tests and `keys list`). */
  today(keyId: string, now: number): number {
    const day = utcDay(now);
    const slot = this.table.existing(keyId);
    const word = slot === undefined ? 0n : Atomics.load(this.table.quota, slot);
    return word !== 0n && dayOf(word) === day ? countOf(word) : this.stored(keyId, day);
  }

  private stored(keyId: string, day: number): number {
    return this.db.get(`${keyId}:${day}`) ?? 0;
  }

  /**
   * The rate limit, `rate` requests per minute bursting up to `rate`. In units of 1/rate ms, each
   * request moves the arrival time on by a minute, and one that would put it more than `rate`
   * minutes ahead of now is refused. A key whose rate changed starts again with a full burst.
   */
  private takeToken(slot: number, rate: number, now: number): void {
    const { tat, rate: scale } = this.table;
    const was = Atomics.load(scale, slot);
    if (was !== rate && Atomics.compareExchange(scale, slot, was, rate) === was) Atomics.store(tat, slot, 0n);
    const r = BigInt(rate);
    const at = BigInt(Math.floor(now)) * r;
    for (;;) {
      const word = Atomics.load(tat, slot);
      const next = (word > at ? word : at) + PERIOD_MS;
      const excess = next - at - r * PERIOD_MS;
      if (excess > 0n) {
        const wait = Math.max(1, Math.ceil(Number(excess) / rate / 1000));
        throw new RefrainError('rate_limited', `rate limit of ${rate} requests per minute exceeded; retry in ${wait} s`, { 'Retry-After': String(wait) });
      }
      if (Atomics.compareExchange(tat, slot, word, next) === word) return;
    }
  }

  /** Write the daily counts changed since the last flush (one async LMDB transaction). */
  async flush(): Promise<void> {
    const pending: [keyId: string, day: number, count: number][] = [];
    for (const [slot, keyId] of this.table.claimed()) {
      const word = Atomics.load(this.table.quota, slot);
      if (word === 0n || this.saved.get(slot) === word) continue;
      this.saved.set(slot, word);
      pending.push([keyId, dayOf(word), countOf(word)]);
    }
    if (pending.length === 0) return;
    await this.db.transaction(() => {
      for (const [keyId, day, count] of pending) this.db.put(`${keyId}:${day}`, count);
    });
  }
}
