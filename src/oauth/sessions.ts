/**
 * Login sessions of the authorization endpoint, their CSRF tokens and the authorization requests
 * waiting on them, in LMDB (db `oauth-sessions`), and login throttling.
 *
 * A session id is 256 random bits sent only in the cookie; the database key is its SHA-256, so a
 * copy of the data directory cannot be replayed as a cookie. Every session has a CSRF token that
 * every form carries; a session starts before login (so the login form is protected too) and is
 * replaced by a new id at login (no session fixation). The authorization request being served is
 * kept in the session under a random id that the forms carry, so it survives the login step and
 * several tabs can run flows at once.
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
  /** Set once the user logged in. */
  userId?: string;
  /** Seconds since the epoch of the login (OIDC `auth_time`). */
  authTime?: number;
  requests: Record<string, PendingAuthorization>;
}

/** A logged-in session lasts this long (absolute, from login). */
export const SESSION_TTL_MS = 8 * 3600_000;
/** A session before login, and an authorization request, last this long. */
const PRE_LOGIN_TTL_MS = 3600_000;
const REQUEST_TTL_MS = 3600_000;
/** Requests kept per session (tabs); the oldest is dropped past it. */
const MAX_REQUESTS = 10;
const SWEEP_EVERY_MS = 10 * 60_000;

const newSecret = (): string => randomBytes(32).toString('base64url');
const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest();
const dbKey = (id: string): string => sha256(id).toString('hex');

/** Whether a submitted CSRF token is the session's (constant time). */
export function csrfMatches(session: Session, submitted: string | undefined): boolean {
  return submitted !== undefined && timingSafeEqual(sha256(session.csrf), sha256(submitted));
}

export class SessionStore {
  private readonly db: Database<Session, string>;
  private lastSweep = 0;

  constructor(
    root: RootDatabase,
    private readonly clock: () => number = Date.now,
  ) {
    this.db = root.openDB<Session, string>({ name: 'oauth-sessions' });
  }

  /** The live session of a cookie value, or undefined. */
  get(id: string | undefined): Session | undefined {
    if (!id || id.length > 100) return undefined;
    const session = this.db.get(dbKey(id));
    return session && session.expires > this.clock() ? session : undefined;
  }

  /** A new session before login, holding one authorization request; returns its id and the request's. */
  async start(request: PendingAuthorization): Promise<{ id: string; session: Session; requestId: string }> {
    this.sweep();
    const id = newSecret();
    const requestId = randomBytes(16).toString('base64url');
    const session: Session = { csrf: newSecret(), expires: this.clock() + PRE_LOGIN_TTL_MS, requests: { [requestId]: request } };
    await this.db.put(dbKey(id), session);
    return { id, session, requestId };
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
   * Log in: the pre-login session is replaced by a new one (new id, new CSRF token) holding the
   * same requests. Undefined when the old session is gone.
   */
  async login(id: string, userId: string): Promise<{ id: string; session: Session } | undefined> {
    const oldKey = dbKey(id);
    const newId = newSecret();
    const now = this.clock();
    const session = await this.db.transaction(() => {
      const s = this.live(oldKey);
      if (!s) return undefined;
      const next: Session = { csrf: newSecret(), expires: now + SESSION_TTL_MS, userId, authTime: Math.floor(now / 1000), requests: s.requests };
      void this.db.remove(oldKey);
      void this.db.put(dbKey(newId), next);
      return next;
    });
    return session && { id: newId, session };
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

  private live(key: string): Session | undefined {
    const s = this.db.get(key);
    return s && s.expires > this.clock() ? s : undefined;
  }

  private requestLive(r: PendingAuthorization): boolean {
    return r.created + REQUEST_TTL_MS > this.clock();
  }

  /** Drop expired sessions, at most every ten minutes: abandoned pre-login sessions must not pile up. */
  private sweep(): void {
    const now = this.clock();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    void this.db.transaction(() => {
      for (const { key, value } of this.db.getRange()) if (value.expires <= now) void this.db.remove(key);
    });
  }
}

/**
 * Login throttling: `limit` failures per e-mail or per client address within `windowMs` refuse
 * further attempts until the oldest failure leaves the window. In memory: one server process
 * serves the login pages, and a restart forgetting failures is acceptable.
 */
export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly limit = 5,
    private readonly windowMs = 15 * 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  /** Seconds to wait before another attempt for any of `keys`, 0 when allowed. */
  retryAfter(keys: string[]): number {
    const now = this.clock();
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.limit) wait = Math.max(wait, Math.ceil((recent[recent.length - this.limit] + this.windowMs - now) / 1000));
    }
    return wait;
  }

  fail(keys: string[]): void {
    const now = this.clock();
    if (this.failures.size >= this.maxKeys) this.prune(now);
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now].slice(-this.limit));
  }

  /** A successful login clears its e-mail's failures (not the address's: one account must not unlock an address). */
  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  private prune(now: number): void {
    for (const [key, times] of this.failures) if (times[times.length - 1] <= now - this.windowMs) this.failures.delete(key);
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
