/**
 * Authorization codes and grants (token families), docs/oauth.md "Tokens".
 *
 * - `oauth-codes`: SHA-256 of a code → what it is bound to; redeemed once. A redeemed code is kept
 *   (marked with the grant it made) until an hour after it expires, so a replay can revoke that grant
 *   (RFC 6749 §4.1.2, RFC 9700 §4.14.2). Stale codes are pruned lazily when codes are issued, a
 *   bounded batch at a time.
 * - `oauth-grants`: grant id → the grant, with the SHA-256 of its one current refresh token.
 * - `oauth-refresh`: SHA-256 of every refresh token ever issued → its grant id, so a spent token is
 *   recognised as spent (and the family revoked) rather than as unknown.
 *
 * Redemption and rotation each run in one LMDB write transaction: LMDB admits one writer at a time
 * across processes, so of two concurrent refreshes with the same token exactly one sees it current.
 * Errors that must also write (a replayed code or refresh token revokes the grant) are thrown after
 * the transaction commits: throwing inside it would roll the revocation back.
 *
 * Every write is asynchronous (lmdb's `transaction`, not `transactionSync`): these run on request
 * paths, and waiting for the write lock — which an import in another process may hold for seconds —
 * must not block the event loop. The write thread waits for the lock; the callback then runs on the
 * main thread inside the transaction, and the promise resolves once it has committed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import { isoSeconds } from '../util/date.js';
import { OAuthError } from './errors.js';

export interface CodeRequest {
  clientId: string;
  userId: string;
  redirectUri: string;
  scope: string[];
  /** PKCE S256 challenge: base64url(SHA-256(code_verifier)). */
  codeChallenge: string;
  nonce?: string;
  /** Seconds since the epoch when the user authenticated (OpenID Connect `auth_time`). */
  authTime: number;
}

export interface Grant {
  grant_id: string;
  client_id: string;
  user_id: string;
  scope: string[];
  /** Bumped on every refresh; access tokens carry the generation they were issued at (`gen`). */
  generation: number;
  created: string;
  revoked: string | null;
  auth_time: number;
  nonce?: string;
}

interface StoredCode {
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string[];
  code_challenge: string;
  nonce?: string;
  auth_time: number;
  /** Milliseconds since the epoch. */
  expires: number;
  /** The grant the code was redeemed for, null until then. */
  grant_id: string | null;
}

interface StoredGrant extends Grant {
  /** SHA-256 (hex) of the current refresh token. */
  refresh_hash: string;
}

/** RFC 6749 §4.1.2 recommends at most 10 minutes. */
export const CODE_TTL_MS = 10 * 60_000;
const KEEP_REDEEMED_MS = 60 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/** Codes examined per prune pass (the next pass goes on from there). */
const PRUNE_BATCH = 1000;

const sha256hex = (s: string): string => createHash('sha256').update(s).digest('hex');
const newSecret = (): string => randomBytes(32).toString('base64url');

/** PKCE S256 (RFC 7636 §4.6): base64url(SHA-256(verifier)) equals the challenge, compared in constant time. */
function pkceMatches(verifier: string, challenge: string): boolean {
  const actual = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const publicPart = ({ refresh_hash: _, ...grant }: StoredGrant): Grant => grant;

type Outcome<T> = { ok: T } | { error: OAuthError };

export class GrantStore {
  private readonly codes: Database<StoredCode, string>;
  private readonly grants: Database<StoredGrant, string>;
  private readonly refreshTokens: Database<string, string>;
  private readonly clock: () => number;
  private lastPrune = 0;
  /** Where the next prune pass starts (undefined: at the first code). */
  private pruneCursor: string | undefined;

  constructor(root: RootDatabase, clock: () => number = Date.now) {
    this.codes = root.openDB<StoredCode, string>({ name: 'oauth-codes' });
    this.grants = root.openDB<StoredGrant, string>({ name: 'oauth-grants' });
    this.refreshTokens = root.openDB<string, string>({ name: 'oauth-refresh' });
    this.clock = clock;
  }

  /** A new authorization code (256 bits, base64url) bound to the request, valid 10 minutes; resolves once stored. */
  async issueCode(req: CodeRequest): Promise<string> {
    const code = newSecret();
    const now = this.clock();
    const record: StoredCode = {
      client_id: req.clientId,
      user_id: req.userId,
      redirect_uri: req.redirectUri,
      scope: [...req.scope],
      code_challenge: req.codeChallenge,
      auth_time: req.authTime,
      expires: now + CODE_TTL_MS,
      grant_id: null,
    };
    if (req.nonce !== undefined) record.nonce = req.nonce;
    const written = this.codes.put(sha256hex(code), record);
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      this.prune(now);
    }
    await written;
    return code;
  }

  /**
   * Remove stale codes among the next PRUNE_BATCH (read without the write lock; a stale code is
   * never written again, so queued removals are safe).
   */
  private prune(now: number): void {
    let seen = 0;
    let more = false;
    let last: string | undefined;
    for (const { key, value } of this.codes.getRange({ start: this.pruneCursor, limit: PRUNE_BATCH + 2 })) {
      if (key === this.pruneCursor) continue;
      if (seen === PRUNE_BATCH) {
        more = true;
        break;
      }
      seen++;
      last = key;
      if (value.expires + KEEP_REDEEMED_MS < now) void this.codes.remove(key);
    }
    this.pruneCursor = more ? last : undefined;
  }

  /**
   * Redeem a code for a new grant and its first refresh token. OAuthError('invalid_grant') when the
   * code is unknown, expired, issued to another client or for another redirect URI, the PKCE
   * verifier does not match, or it was redeemed before (which also revokes that grant).
   */
  async redeemCode(code: string, clientId: string, redirectUri: string, codeVerifier: string): Promise<{ grant: Grant; refreshToken: string }> {
    const hash = sha256hex(code);
    const now = this.clock();
    const outcome = await this.codes.transaction((): Outcome<{ grant: Grant; refreshToken: string }> => {
      const stored = this.codes.get(hash);
      if (!stored) return invalid('unknown authorization code');
      if (stored.grant_id !== null) {
        this.revokeInTxn(stored.grant_id, now);
        return invalid('authorization code already used: the tokens issued for it are revoked');
      }
      if (now >= stored.expires) return invalid('authorization code expired');
      if (stored.client_id !== clientId) return invalid('authorization code issued to another client');
      if (stored.redirect_uri !== redirectUri) return invalid('redirect_uri differs from the authorization request');
      if (!pkceMatches(codeVerifier, stored.code_challenge)) return invalid('code_verifier does not match the code_challenge');
      const refreshToken = newSecret();
      const grant: StoredGrant = {
        grant_id: `g_${randomBytes(12).toString('hex')}`,
        client_id: stored.client_id,
        user_id: stored.user_id,
        scope: stored.scope,
        generation: 1,
        created: isoSeconds(now),
        revoked: null,
        auth_time: stored.auth_time,
        refresh_hash: sha256hex(refreshToken),
      };
      if (stored.nonce !== undefined) grant.nonce = stored.nonce;
      void this.grants.put(grant.grant_id, grant);
      void this.refreshTokens.put(grant.refresh_hash, grant.grant_id);
      void this.codes.put(hash, { ...stored, grant_id: grant.grant_id });
      return { ok: { grant: publicPart(grant), refreshToken } };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.ok;
  }

  /**
   * Rotate a refresh token. invalid_grant when it is unknown, belongs to another client's grant,
   * the grant is revoked, or the token is spent (which revokes the grant); invalid_scope when
   * `scope` is not within the grant's. Returns the grant at its next generation, the new refresh
   * token and the scope of the new access token (`scope`, or the grant's when omitted).
   */
  async refresh(refreshToken: string, clientId: string, scope?: string[]): Promise<{ grant: Grant; refreshToken: string; scope: string[] }> {
    const hash = sha256hex(refreshToken);
    const now = this.clock();
    const outcome = await this.grants.transaction((): Outcome<{ grant: Grant; refreshToken: string; scope: string[] }> => {
      const grantId = this.refreshTokens.get(hash);
      const stored = grantId === undefined ? undefined : this.grants.get(grantId);
      if (!stored) return invalid('unknown refresh token');
      if (stored.client_id !== clientId) return invalid('refresh token issued to another client');
      if (stored.revoked) return invalid('refresh token revoked');
      if (stored.refresh_hash !== hash) {
        // RFC 9700 §4.14.2: a spent token in use means it leaked (or a race); end the whole family.
        this.revokeInTxn(stored.grant_id, now);
        return invalid('refresh token already used: the grant is revoked');
      }
      const granted = new Set(stored.scope);
      const wider = scope?.filter((s) => !granted.has(s)) ?? [];
      if (wider.length) {
        return { error: new OAuthError('invalid_scope', `scope wider than the grant: ${wider.join(' ')}`) };
      }
      const next = newSecret();
      const rotated: StoredGrant = { ...stored, generation: stored.generation + 1, refresh_hash: sha256hex(next) };
      void this.grants.put(rotated.grant_id, rotated);
      void this.refreshTokens.put(rotated.refresh_hash, rotated.grant_id);
      return { ok: { grant: publicPart(rotated), refreshToken: next, scope: scope ? [...scope] : [...stored.scope] } };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.ok;
  }

  /** A grant, live or revoked (check `.revoked`). */
  get(grantId: string): Grant | undefined {
    const stored = this.grants.get(grantId);
    return stored && publicPart(stored);
  }

  /** Revoke a grant: its refresh token and every access token issued from it stop working (once resolved). */
  async revoke(grantId: string): Promise<void> {
    const now = this.clock();
    await this.grants.transaction(() => this.revokeInTxn(grantId, now));
  }

  /** Inside a write transaction: the put joins it. */
  private revokeInTxn(grantId: string, now: number): void {
    const stored = this.grants.get(grantId);
    if (stored && !stored.revoked) void this.grants.put(grantId, { ...stored, revoked: isoSeconds(now) });
  }
}

const invalid = (description: string): { error: OAuthError } => ({ error: new OAuthError('invalid_grant', description) });
