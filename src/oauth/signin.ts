/**
 * The state of a sign-in before login, kept out of the database: `GET /oauth/authorize` is
 * unauthenticated, so nothing it does may grow the data directory.
 *
 * - The authorization request waiting for login travels in a **sign-in token**: the request and an
 *   expiry, packed (msgpack) and signed with HMAC-SHA-256 under a key of the data directory
 *   (`<data>/secrets/oauth-signin.key`). The login form carries it in its `request` field and the
 *   "wrong password" redirect in its query; it is only trusted after its signature is checked.
 * - The login form's CSRF token is an HMAC of the browser's session cookie, whose value before login
 *   is a random id stored nowhere. A forged form from another site cannot know it (the cookie is
 *   HttpOnly and SameSite=Lax).
 *
 * A session is written to LMDB only after a successful login (sessions.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Packr } from 'msgpackr';
import type { PendingAuthorization } from './sessions.js';

/** Longest sign-in token accepted unread (a request with 1,024-character state and nonce fits). */
const MAX_TOKEN_LENGTH = 16 * 1024;
const MAC_LENGTH = 32;
/** Plain msgpack (no record extension): a token stands alone. */
const packr = new Packr({ useRecords: false });

export class SignIn {
  constructor(
    private readonly key: Buffer,
    /** How long a sign-in token (the authorization request before login) stays valid, ms. */
    readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A token carrying `request`, valid `ttlMs` from the request's creation. */
  seal(request: PendingAuthorization): string {
    const payload = packr.pack([1, request.created + this.ttlMs, request]);
    return `${payload.toString('base64url')}.${this.mac('request', payload).toString('base64url')}`;
  }

  /** The request of a token this server signed and that has not expired, else undefined. */
  open(token: string | undefined): PendingAuthorization | undefined {
    if (!token || token.length > MAX_TOKEN_LENGTH) return undefined;
    const dot = token.indexOf('.');
    if (dot === -1) return undefined;
    const payload = Buffer.from(token.slice(0, dot), 'base64url');
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    if (mac.length !== MAC_LENGTH || !timingSafeEqual(mac, this.mac('request', payload))) return undefined;
    try {
      const [version, expires, request] = packr.unpack(payload) as [number, number, PendingAuthorization];
      return version === 1 && expires > this.clock() ? request : undefined;
    } catch {
      return undefined; // signed by us, so only a key shared with an incompatible version gets here
    }
  }

  /** The login form's CSRF token for a browser whose session cookie is `browserId`. */
  csrf(browserId: string): string {
    return this.mac('csrf', Buffer.from(browserId)).toString('base64url');
  }

  /** Whether a submitted login-form CSRF token is the one of `browserId` (constant time). */
  csrfMatches(browserId: string, submitted: string | undefined): boolean {
    if (submitted === undefined) return false;
    const expected = this.mac('csrf', Buffer.from(browserId));
    const actual = Buffer.from(submitted, 'base64url');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  private mac(purpose: string, data: Buffer): Buffer {
    return createHmac('sha256', this.key).update(`refrain-oauth-${purpose}\0`).update(data).digest();
  }
}
