/**
 * Login sessions of the authorization endpoint, their CSRF tokens and the authorization requests
 * waiting on them, in LMDB (db `oauth-sessions`), and login throttling.
 *
 * A session is written only after a successful login: before it, the authorization request travels
 * in a signed sign-in token and the login form's CSRF token is an HMAC of the cookie (signin.ts), so
 * unauthenticated calls write nothing. A session id is 256 random bits sent only in the cookie; the
 * database key is its SHA-256, so a copy of the data directory cannot be replayed as a cookie. The
 * id is new at login (no session fixation). The requests being served are kept in the session under
 * random ids that the forms carry, so several tabs can run flows at once.
 *
 * Bounds: at most `perAddress` sessions per client address (db `oauth-session-addresses` indexes
 * them by address and age; a login beyond the cap ends that address's oldest session), and expired
 * sessions are purged at start and periodically, a bounded batch per pass.
 *
 * Every write is an asynchronous LMDB operation: a request never waits on the event loop for the
 * write lock (another process, an import, may hold it).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';

/** An authorization request that passed validation, waiting for login and consent. */
export interface PendingAuthorization {
  clientId: string;
  redirectUri: string;
  scope: string[];
  state: string;
  codeChallenge: string;
  nonce?: string;
  /** Milliseconds since the epoch. */
  created: number;
}

export interface Session {
  csrf: string;
  /** Milliseconds since the epoch. */
  expires: number;
  /** The user who logged in (sessions written before login by older versions have none: ignored, purged). */
  userId?: string;
  /** Seconds since the epoch of the login (OIDC `auth_time`). */
  authTime?: number;
  requests: Record<string, PendingAuthorization>;
  /** The client address that logged in, and when (ms): the key of its entry in the address index. */
  ip?: string;
  created?: number;
}

export interface SessionLimits {
  /** Sessions kept per client address; a login beyond it ends the address's oldest. */
  perAddress: number;
  /** How long an authorization request stays answerable, from its creation, ms. */
  requestTtlMs: number;
  /** Sessions examined per purge pass. */
  purgeBatch?: number;
  /** Time between purge cycles, ms. */
  purgeEveryMs?: number;
}

/** A logged-in session lasts this long (absolute, from login). */
export const SESSION_TTL_MS = 8 * 3600_000;
/** Requests kept per session (tabs); the oldest is dropped past it. */
const MAX_REQUESTS = 10;
const PURGE_BATCH = 1000;
const PURGE_EVERY_MS = 10 * 60_000;

const newSecret = (): string => randomBytes(32).toString('base64url');
const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest();
const dbKey = (id: string): string => sha256(id).toString('hex');
/**
 * Address index key: address, login time (sortable), session key, separated by spaces (which no
 * address holds; LMDB's ordered-binary keys reserve the low control characters).
 */
const addressKey = (ip: string, created: number, key: string): string => `${ip} ${created.toString(36).padStart(10, '0')} ${key}`;

/** Whether a submitted CSRF token is the session's (constant time). */
export function csrfMatches(session: Session, submitted: string | undefined): boolean {
  return submitted !== undefined && timingSafeEqual(sha256(session.csrf), sha256(submitted));
}

export class SessionStore {
  private readonly db: Database<Session, string>;
  private readonly addresses: Database<number, string>;
  private readonly perAddress: number;
  private readonly requestTtlMs: number;
  private readonly purgeBatch: number;
  private readonly purgeEveryMs: number;
  /** Where the next purge pass starts (undefined: at the first session). */
  private cursor: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private cycle: Promise<void> | undefined;
  private closed = false;

  constructor(
    root: RootDatabase,
    private readonly clock: () => number = Date.now,
    limits: SessionLimits = { perAddress: 20, requestTtlMs: 3600_000 },
  ) {
    this.db = root.openDB<Session, string>({ name: 'oauth-sessions' });
    this.addresses = root.openDB<number, string>({ name: 'oauth-session-addresses' });
    this.perAddress = limits.perAddress;
    this.requestTtlMs = limits.requestTtlMs;
    this.purgeBatch = limits.purgeBatch ?? PURGE_BATCH;
    this.purgeEveryMs = limits.purgeEveryMs ?? PURGE_EVERY_MS;
  }

  /** The live logged-in session of a cookie value, or undefined. */
  get(id: string | undefined): Session | undefined {
    if (!id || id.length > 100) return undefined;
    return this.live(dbKey(id));
  }

  /** Add an authorization request to a live session; undefined when the session is gone. */
  async addRequest(id: string, request: PendingAuthorization): Promise<{ session: Session; requestId: string } | undefined> {
    const requestId = randomBytes(16).toString('base64url');
    const key = dbKey(id);
    const session = await this.db.transaction(() => {
      const s = this.live(key);
      if (!s) return undefined;
      const kept = Object.entries(s.requests).filter(([, r]) => this.requestLive(r)).slice(-(MAX_REQUESTS - 1));
      const updated: Session = { ...s, requests: { ...Object.fromEntries(kept), [requestId]: request } };
      void this.db.put(key, updated);
      return updated;
    });
    return session && { session, requestId };
  }

  /** The live authorization request `requestId` of a session, or undefined. */
  request(session: Session, requestId: string | undefined): PendingAuthorization | undefined {
    const r = requestId ? session.requests[requestId] : undefined;
    return r && this.requestLive(r) ? r : undefined;
  }

  /**
   * Log in: a new session (new id, new CSRF token) for `userId` at `ip`, holding `request` (and the
   * live requests of the session `replaces`, which ends). When `ip` has `perAddress` sessions
   * already, its oldest end.
   */
  async login(login: { userId: string; ip: string; request: PendingAuthorization; replaces?: string }): Promise<{ id: string; session: Session; requestId: string }> {
    const id = newSecret();
    const key = dbKey(id);
    const requestId = randomBytes(16).toString('base64url');
    const now = this.clock();
    const { ip } = login;
    const session = await this.db.transaction(() => {
      const old = login.replaces === undefined ? undefined : this.live(dbKey(login.replaces));
      const kept = old ? Object.entries(old.requests).filter(([, r]) => this.requestLive(r)).slice(-(MAX_REQUESTS - 1)) : [];
      if (login.replaces !== undefined) this.drop(dbKey(login.replaces));
      // The address's sessions, oldest first: forget dead entries, end the oldest beyond the cap.
      const live: { indexKey: string; key: string }[] = [];
      for (const { key: indexKey } of this.addresses.getRange({ start: `${ip} `, end: `${ip}!` })) {
        const sessionKey = indexKey.slice(indexKey.lastIndexOf(' ') + 1);
        if (this.live(sessionKey)) live.push({ indexKey, key: sessionKey });
        else {
          void this.addresses.remove(indexKey);
          void this.db.remove(sessionKey);
        }
      }
      for (const oldest of live.slice(0, Math.max(0, live.length - this.perAddress + 1))) {
        void this.addresses.remove(oldest.indexKey);
        void this.db.remove(oldest.key);
      }
      const next: Session = {
        csrf: newSecret(),
        expires: now + SESSION_TTL_MS,
        userId: login.userId,
        authTime: Math.floor(now / 1000),
        requests: { ...Object.fromEntries(kept), [requestId]: login.request },
        ip,
        created: now,
      };
      void this.db.put(key, next);
      void this.addresses.put(addressKey(ip, now, key), next.expires);
      return next;
    });
    return { id, session, requestId };
  }

  /** Remove and return a request (consent given or refused): each request is answered once. */
  async takeRequest(id: string, requestId: string): Promise<PendingAuthorization | undefined> {
    const key = dbKey(id);
    return this.db.transaction(() => {
      const s = this.live(key);
      const r = s?.requests[requestId];
      if (!s || !r) return undefined;
      const { [requestId]: _taken, ...rest } = s.requests;
      void this.db.put(key, { ...s, requests: rest });
      return this.requestLive(r) ? r : undefined;
    });
  }

  /** Sessions in the database (tests and the abuse bench look). */
  count(): number {
    return this.db.getCount();
  }

  /**
   * One purge pass: examine up to `purgeBatch` sessions from where the last pass stopped and remove
   * the expired ones (and those an older version wrote before login). Reads without the write lock;
   * the removals are queued asynchronously (an expired session is never written again). Returns the
   * sessions removed and whether the pass reached the end (the next one starts over).
   */
  purgePass(): { removed: number; wrapped: boolean } {
    const now = this.clock();
    let seen = 0;
    let removed = 0;
    let last: string | undefined;
    let more = false;
    // The previous pass's last key (examined already), the batch, and one more to know whether the end is reached.
    for (const { key, value } of this.db.getRange({ start: this.cursor, limit: this.purgeBatch + 2 })) {
      if (key === this.cursor) continue;
      if (seen === this.purgeBatch) {
        more = true;
        break;
      }
      seen++;
      last = key;
      if (value.userId === undefined || value.expires <= now) {
        this.drop(key, value);
        removed++;
      }
    }
    const wrapped = !more;
    this.cursor = wrapped ? undefined : last;
    return { removed, wrapped };
  }

  /**
   * Purge now (every pass until the end, one per timer tick), then a cycle every `purgeEveryMs`.
   * A failed cycle goes to `onError`; the next one tries again.
   */
  startPurging(onError: (err: unknown) => void): void {
    if (this.timer || this.closed) return;
    const cycle = () => void this.purgeCycle().catch(onError);
    this.timer = setInterval(cycle, this.purgeEveryMs);
    this.timer.unref();
    cycle();
  }

  /** Stop purging (before the environment closes); resolves once a running pass has finished. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.cycle?.catch(() => undefined); // a failure went to onError already
  }

  private purgeCycle(): Promise<void> {
    this.cycle ??= (async () => {
      try {
        this.cursor = undefined;
        while (!this.closed && !this.purgePass().wrapped) await new Promise((resolve) => setTimeout(resolve, 10));
        await this.db.committed;
      } finally {
        this.cycle = undefined;
      }
    })();
    return this.cycle;
  }

  /** Remove a session and its address index entry (queued, asynchronous). */
  private drop(key: string, session: Session | undefined = this.db.get(key)): void {
    void this.db.remove(key);
    if (session?.ip !== undefined && session.created !== undefined) void this.addresses.remove(addressKey(session.ip, session.created, key));
  }

  private live(key: string): Session | undefined {
    const s = this.db.get(key);
    return s && s.userId !== undefined && s.expires > this.clock() ? s : undefined;
  }

  private requestLive(r: PendingAuthorization): boolean {
    return r.created + this.requestTtlMs > this.clock();
  }
}

/** A login attempt counted before its password is checked (LoginThrottle.begin). */
export interface Attempt {
  keys: string[];
  /** When it was counted, ms since the epoch. */
  at: number;
}

/**
 * Login throttling: at most `limit` attempts that are not successes per e-mail or per client
 * address within `windowMs`; beyond, attempts are refused until the oldest leaves the window.
 *
 * An attempt is counted when it **starts** (`begin`), before its password is checked, and stays
 * counted as a failure unless it succeeds (`succeeded`): however many arrive at once, at most
 * `limit` passwords are checked per key and window (the check takes ~100 ms of scrypt, and counting
 * after it let 150 parallel guesses through). In memory: one server process serves the login
 * pages, and a restart forgetting failures is acceptable.
 */
/** What a throttle answers an attempt: counted, or refused for `retryAfter` seconds. */
export type ThrottleResult = { attempt: Attempt } | { retryAfter: number };

/**
 * Login throttling as the sign-in page uses it: a LoginThrottle on the thread that owns it, or one
 * asked over a thread hop (an HTTP thread of several: src/front-worker.ts), hence the promise.
 */
export interface Throttle {
  begin(keys: string[]): ThrottleResult | Promise<ThrottleResult>;
  succeeded(attempt: Attempt): void;
}

export class LoginThrottle implements Throttle {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly limit = 5,
    private readonly windowMs = 15 * 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  /**
   * Count an attempt for every key of `keys` (an e-mail's and an address's) now, or refuse it:
   * `retryAfter` is the seconds until one of the keys may try again.
   */
  begin(keys: string[]): ThrottleResult {
    const now = this.clock();
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.limit) wait = Math.max(wait, Math.ceil((recent[recent.length - this.limit] + this.windowMs - now) / 1000));
    }
    if (wait > 0) return { retryAfter: wait };
    if (this.failures.size >= this.maxKeys) this.prune(now);
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now].slice(-this.limit));
    return { attempt: { keys, at: now } };
  }

  /**
   * The attempt succeeded: it no longer counts, and its e-mail's failures are cleared (not the
   * address's: one account must not unlock an address). The e-mail is `keys[0]`.
   */
  succeeded(attempt: Attempt): void {
    const [email, ...others] = attempt.keys;
    this.failures.delete(email);
    for (const key of others) {
      const times = this.failures.get(key);
      const i = times?.indexOf(attempt.at) ?? -1;
      if (times && i !== -1) times.splice(i, 1);
    }
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  private prune(now: number): void {
    for (const [key, times] of this.failures) if (times.length === 0 || times[times.length - 1] <= now - this.windowMs) this.failures.delete(key);
    // Still full (an attack from many addresses): forget the oldest half rather than grow without bound.
    if (this.failures.size >= this.maxKeys) {
      let drop = this.failures.size / 2;
      for (const key of this.failures.keys()) {
        if (drop-- <= 0) break;
        this.failures.delete(key);
      }
    }
  }
}
