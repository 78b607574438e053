/**
 * Who is calling: the `apikey` parameter, looked up through an in-memory cache so the hot path
 * does not hash and read LMDB on every request. Keys are created and revoked by the CLI in another
 * process, which bumps a version counter; the cache is dropped within a second of a change.
 */
import { RefrainError } from '../errors.js';
import type { KeyRecord, KeyStore } from './keys.js';
import { watchVersion, type VersionWatch } from '../util/version-watch.js';

/** Unknown keys are cached too (so a flood of bad keys stays cheap), up to this many entries. */
const MAX_CACHED = 50_000;

export class Guard {
  private cache = new Map<string, KeyRecord | null>();
  private readonly watch: VersionWatch;

  constructor(
    private readonly keys: KeyStore,
    refresh: () => void,
  ) {
    const read = () => {
      refresh();
      return keys.version();
    };
    this.watch = watchVersion(read, () => (this.cache = new Map()), 1000);
  }

  /** Drop cached keys if any key changed since the last look. */
  checkVersion(): void {
    this.watch.check();
  }

  /** The caller's key, or 401 with a hint saying what is wrong. */
  authenticate(apikey: string | undefined, authorization: string): KeyRecord {
    if (authorization && /^bearer\s/i.test(authorization)) {
      throw new RefrainError(401, 'invalid token: this server accepts API keys (apikey parameter) only', {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    if (!apikey) throw new RefrainError(401, 'missing apikey parameter');
    let record = this.cache.get(apikey);
    if (record === undefined) {
      record = apikey.length <= 128 ? (this.keys.lookup(apikey) ?? null) : null;
      if (this.cache.size >= MAX_CACHED) this.cache = new Map();
      this.cache.set(apikey, record);
    }
    if (!record) throw new RefrainError(401, 'invalid or revoked apikey');
    return record;
  }

  close(): void {
    this.watch.close();
  }
}
