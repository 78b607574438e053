/**
 * Issues access tokens (RS256 JWTs, RFC 9068 `typ: at+jwt`) and ID tokens, and verifies access
 * tokens for the API (docs/oauth.md "Tokens").
 *
 * Verification has two parts with different costs. The signature (an RSA verify, ~50 µs) is
 * checked once per token and the claims cached (bounded map). Liveness is checked on every call:
 * `exp` against the clock, the client not revoked, and for user tokens the grant not revoked and
 * still at the generation the token was issued with, and the user not disabled — LMDB reads of a
 * few microseconds, so revoking a client, a grant or a user takes effect on the next request.
 */
import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { ClientRecord, ClientStore } from './clients.js';
import { OAuthError } from './errors.js';
import type { Grant, GrantStore } from './grants.js';
import { formatScope } from './scopes.js';
import type { SigningKeys } from './signing-keys.js';
import type { UserStore } from './users.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

export interface AccessClaims {
  iss: string;
  sub: string;
  client_id: string;
  scope: string[];
  jti: string;
  iat: number;
  exp: number;
  /** User tokens: the grant they were issued from. */
  gid?: string;
  /** User tokens: the grant's generation when they were issued. */
  gen?: number;
}

export interface TokenServiceDeps {
  keys: SigningKeys;
  grants: GrantStore;
  clients: ClientStore;
  users: UserStore;
  /** Used byte for byte as `iss`, and required so on verification. */
  issuer: string;
  /** Lifetime of access and ID tokens, in seconds. */
  accessTtl: number;
  /** Milliseconds since the epoch (tests move it). */
  clock?: () => number;
}

/** Verified tokens whose claims are kept; the oldest is dropped beyond this (~1 KB each). */
const MAX_CACHED = 100_000;
/** Longer bearer values are refused unread: ours are under 1 KB. */
const MAX_TOKEN_LENGTH = 4096;
/** An unknown `kid` re-reads the key file (a rotation elsewhere) at most this often. */
const RELOAD_EVERY_MS = 1000;

export class TokenService {
  readonly issuer: string;
  private readonly keys: SigningKeys;
  private readonly grants: GrantStore;
  private readonly clients: ClientStore;
  private readonly users: UserStore;
  private readonly accessTtl: number;
  private readonly clock: () => number;
  private readonly cache = new Map<string, AccessClaims>();
  private lastReload = 0;

  constructor(deps: TokenServiceDeps) {
    this.keys = deps.keys;
    this.grants = deps.grants;
    this.clients = deps.clients;
    this.users = deps.users;
    this.issuer = deps.issuer;
    this.accessTtl = deps.accessTtl;
    this.clock = deps.clock ?? Date.now;
  }

  /**
   * Tokens for a grant just created or refreshed: an access token carrying the grant id and
   * generation, the refresh token (when the client is registered for `refresh_token`), and an ID
   * token when `scope` has `openid`. If the client was revoked or the user disabled since, the
   * grant is revoked and OAuthError('invalid_grant') thrown.
   */
  async issueForGrant(grant: Grant, scope: string[], refreshToken: string): Promise<TokenResponse> {
    const client = this.clients.get(grant.client_id);
    const user = this.users.get(grant.user_id);
    if (!client || client.revoked || !user || user.disabled) {
      await this.grants.revoke(grant.grant_id);
      throw new OAuthError('invalid_grant', client && !client.revoked ? 'the user is disabled' : 'the client is revoked');
    }
    await this.keys.reload();
    const now = this.seconds();
    const response: TokenResponse = {
      access_token: await this.accessToken(user.user_id, client.client_id, scope, now, { gid: grant.grant_id, gen: grant.generation }),
      token_type: 'Bearer',
      expires_in: this.accessTtl,
      scope: formatScope(scope),
    };
    if (client.grant_types.includes('refresh_token')) response.refresh_token = refreshToken;
    if (scope.includes('openid')) {
      const claims: JWTPayload = { auth_time: grant.auth_time };
      if (grant.nonce !== undefined) claims.nonce = grant.nonce;
      if (scope.includes('email')) {
        claims.email = user.email;
        // Addresses are entered by the operator (`refrain users create`), who vouches for them.
        claims.email_verified = true;
      }
      if (scope.includes('profile')) claims.name = user.name;
      const { kid, privateKey } = this.keys.current;
      response.id_token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer(this.issuer)
        .setSubject(user.user_id)
        .setAudience(client.client_id)
        .setIssuedAt(now)
        .setExpirationTime(now + this.accessTtl)
        .sign(privateKey);
    }
    return response;
  }

  /** client_credentials: an access token with `sub` = the client id, no refresh token. */
  async issueClientCredentials(client: ClientRecord, scope: string[]): Promise<TokenResponse> {
    await this.keys.reload();
    return {
      access_token: await this.accessToken(client.client_id, client.client_id, scope, this.seconds()),
      token_type: 'Bearer',
      expires_in: this.accessTtl,
      scope: formatScope(scope),
    };
  }

  /**
   * The claims of a live access token, or undefined: malformed, bad signature, unknown key, other
   * issuer, expired, client revoked, grant revoked or refreshed since, user disabled.
   */
  async verify(token: string): Promise<AccessClaims | undefined> {
    const cached = this.cachedClaims(token);
    if (cached !== undefined) return cached ?? undefined;
    const claims = await this.verifySignature(token);
    if (!claims) return undefined;
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(token, claims);
    return this.isLive(claims) ? claims : undefined;
  }

  /** Synchronous fast path: undefined = not cached (await `verify`), null = cached but not live now, else the live claims. */
  cachedClaims(token: string): AccessClaims | null | undefined {
    const claims = this.cache.get(token);
    if (!claims) return undefined;
    if (claims.exp * 1000 <= this.clock()) {
      this.cache.delete(token); // expiry is final: free the entry
      return null;
    }
    return this.isLive(claims) ? claims : null;
  }

  private seconds(): number {
    return Math.floor(this.clock() / 1000);
  }

  private accessToken(sub: string, clientId: string, scope: string[], now: number, family?: { gid: string; gen: number }): Promise<string> {
    const { kid, privateKey } = this.keys.current;
    return new SignJWT({ client_id: clientId, scope: formatScope(scope), ...family })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setSubject(sub)
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt(now)
      .setExpirationTime(now + this.accessTtl)
      .sign(privateKey);
  }

  private async verifySignature(token: string): Promise<AccessClaims | undefined> {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return undefined;
    try {
      const { kid, alg } = decodeProtectedHeader(token);
      if (alg !== 'RS256' || typeof kid !== 'string') return undefined;
      let key = this.keys.publicKey(kid);
      if (!key && this.clock() - this.lastReload >= RELOAD_EVERY_MS) {
        this.lastReload = this.clock();
        await this.keys.reload();
        key = this.keys.publicKey(kid);
      }
      if (!key) return undefined;
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['RS256'],
        issuer: this.issuer,
        typ: 'at+jwt',
        currentDate: new Date(this.clock()),
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      });
      return claimsOf(payload);
    } catch {
      return undefined; // malformed, bad signature, other issuer, expired…
    }
  }

  private isLive(claims: AccessClaims): boolean {
    if (claims.exp * 1000 <= this.clock()) return false;
    const client = this.clients.get(claims.client_id);
    if (!client || client.revoked) return false;
    if (claims.gid === undefined) return claims.sub === claims.client_id;
    const grant = this.grants.get(claims.gid);
    if (!grant || grant.revoked || grant.generation !== claims.gen || grant.client_id !== claims.client_id) return false;
    const user = this.users.get(claims.sub);
    return Boolean(user && !user.disabled);
  }
}

/** Our claims from a verified payload, or undefined when one is missing or of the wrong type. */
function claimsOf(p: JWTPayload): AccessClaims | undefined {
  const { iss, sub, client_id, scope, jti, iat, exp, gid, gen } = p;
  if (typeof iss !== 'string' || typeof sub !== 'string' || typeof client_id !== 'string' || typeof scope !== 'string') return undefined;
  if (typeof jti !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return undefined;
  const claims: AccessClaims = { iss, sub, client_id, scope: scope.split(' ').filter(Boolean), jti, iat, exp };
  if (gid === undefined && gen === undefined) return claims;
  if (typeof gid !== 'string' || typeof gen !== 'number') return undefined;
  return { ...claims, gid, gen };
}
