/**
 * API keys (docs/design.md §6). A key is 32 random hex characters, like the public service's; only its
 * SHA-256 is stored (a key has 128 bits of entropy, so a fast hash is enough: nothing to brute-force).
 * Each key has a plan, a daily quota, an optional rate limit and an optional country.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import { isoSeconds } from '../util/date.js';
import { RefrainError } from '../errors.js';

export type Plan = 'free' | 'basic' | 'enterprise';

/** Daily quota of each plan when a key does not set its own (0 = unlimited). */
export const DEFAULT_QUOTA: Record<Plan, number> = { free: 2000, basic: 100_000, enterprise: 0 };

export interface KeyRecord {
  /** Public identifier used by `keys revoke`, logs and usage records; never the key itself. */
  key_id: string;
  plan: Plan;
  /** Requests per UTC day, 0 = unlimited. */
  quota: number;
  /** Requests per minute, 0 = unlimited. */
  rate: number;
  /** ISO 3166-1 alpha-2 country whose restrictions apply, or '' for none. */
  country: string;
  label: string;
  created: string;
  revoked: string | null;
}

export interface NewKey {
  plan: Plan;
  quota?: number;
  rate?: number;
  country?: string;
  label?: string;
}

/** Random bytes in a key: its plaintext is their hex, 32 characters 0-9 and a-f. */
const KEY_BYTES = 16;
/** The only shape a key can have (create() makes no other): anything else is refused unread. */
export const KEY_PATTERN = /^[0-9a-f]{32}$/;
export const KEY_SHAPE_HINT = `malformed apikey: a key is ${KEY_BYTES * 2} characters 0-9 and a-f, as \`refrain keys create\` prints it`;

/** Whether a string can be a key at all (length and alphabet): checked before any lookup or cache. */
export const isKeyShaped = (key: string): boolean => key.length === KEY_BYTES * 2 && KEY_PATTERN.test(key);

/** SHA-256 of a key in hex: the database key under which its record is stored. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

const KEYS_VERSION = 'keys:version';

export class KeyStore {
  private readonly db: Database<KeyRecord, string>;
  private readonly meta: Database<unknown, string>;

  constructor(root: RootDatabase) {
    this.db = root.openDB<KeyRecord, string>({ name: 'keys' });
    this.meta = root.openDB<unknown, string>({ name: 'meta' });
  }

  /** Create a key; the plaintext is returned once and never stored. */
  create(spec: NewKey): { key: string; record: KeyRecord } {
    const key = randomBytes(KEY_BYTES).toString('hex');
    const record: KeyRecord = {
      key_id: `k_${randomBytes(6).toString('hex')}`,
      plan: spec.plan,
      quota: spec.quota ?? DEFAULT_QUOTA[spec.plan],
      rate: spec.rate ?? 0,
      country: spec.country ?? '',
      label: spec.label ?? '',
      created: isoSeconds(Date.now()),
      revoked: null,
    };
    this.db.transactionSync(() => {
      this.db.putSync(hashKey(key), record);
      this.bumpVersion();
    });
    return { key, record };
  }

  list(): KeyRecord[] {
    // Oldest first; `created` is to the second, so keys created in the same second go by label, then id.
    return [...this.db.getRange()].map((e) => e.value).sort((a, b) => a.created.localeCompare(b.created) || a.label.localeCompare(b.label) || a.key_id.localeCompare(b.key_id));
  }

  /** Revoke a key by id; throws 404 when no such key exists. */
  revoke(keyId: string): KeyRecord {
    return this.db.transactionSync(() => {
      for (const { key, value } of this.db.getRange()) {
        if (value.key_id !== keyId) continue;
        const revoked = { ...value, revoked: value.revoked ?? isoSeconds(Date.now()) };
        this.db.putSync(key, revoked);
        this.bumpVersion();
        return revoked;
      }
      throw new RefrainError('not_found', `no key with id ${keyId}`);
    });
  }

  /** The live record of a plaintext key, or undefined for an unknown or revoked key. */
  lookup(key: string): KeyRecord | undefined {
    if (!isKeyShaped(key)) return undefined;
    const record = this.db.get(hashKey(key));
    return record && !record.revoked ? record : undefined;
  }

  /** A counter bumped on every change, so servers in other processes know to drop cached keys. */
  version(): number {
    return (this.meta.get(KEYS_VERSION) as number | undefined) ?? 0;
  }

  private bumpVersion(): void {
    this.meta.putSync(KEYS_VERSION, this.version() + 1);
  }
}
