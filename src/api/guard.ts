/**
 * Who is calling: the `apikey` parameter, or an OAuth access token in `Authorization: Bearer`
 * (docs/oauth.md). Keys are looked up through an in-memory cache so the hot path does not hash and
 * read LMDB on every request; keys are created and revoked by the CLI in another process, which
 * bumps a version counter, and the cache is dropped within a second of a change. A token's
 * signature is checked once (TokenService caches the verified claims) while its liveness — grant,
 * client and user state in LMDB — is read on every request, so revocation takes effect at once.
 */
import { RefrainError } from '../errors.js';
import { isKeyShaped, KEY_SHAPE_HINT, type KeyRecord, type KeyStore } from '../auth/keys.js';
import type { ClientStore } from '../oauth/clients.js';
import type { AccessClaims, TokenService } from '../oauth/tokens.js';
import type { ApiScope } from '../oauth/scopes.js';
import type { EpochWatch } from '../util/epochs.js';

/**
 * The caller of an API method: an API key's record, or for a token the record of its client (plan,
 * quota, rate and country are the client's; usage is counted per client as `oauth:<client_id>`)
 * with the token's scopes and subject.
 */
export interface Principal extends KeyRecord {
  /** The token's scopes; absent for API keys, which are limited by plan only. */
  scopes?: ReadonlySet<string>;
  /** The user a token acts for (the client's id for client-credentials tokens). */
  sub?: string;
}

/** OAuth's part of the guard: the token verifier and the clients whose plan a token acts with. */
export interface BearerAuth {
  tokens: TokenService;
  clients: ClientStore;
}

/** Known keys and parsed scope strings cached at most (both are bounded by what the operator made). */
const MAX_CACHED = 50_000;
/**
 * What one unknown key costs in the negative cache beyond its characters: V8's string header and
 * the Set entry. Measured on Node 20: 73 bytes per 32-character key, characters included; 96 on
 * top of the characters leaves room for the hash table's growth.
 */
export const UNKNOWN_ENTRY_OVERHEAD = 96;

/** Bounds of the cache of unknown keys (`--unknown-key-cache`, `--unknown-key-cache-bytes`). */
export interface GuardLimits {
  unknownKeyEntries: number;
  unknownKeyBytes: number;
}

export const DEFAULT_GUARD_LIMITS: GuardLimits = { unknownKeyEntries: 50_000, unknownKeyBytes: 8 * 1024 * 1024 };

/**
 * Well-shaped keys that are not (or no longer) in the store, so a flood of them stays cheap: bounded
 * in entries and in estimated bytes, the oldest dropped first (a Set iterates in insertion order).
 */
export class UnknownKeys {
  private readonly keys = new Set<string>();
  private used = 0;

  constructor(private readonly limits: GuardLimits) {}

  has(key: string): boolean {
    return this.keys.has(key);
  }

  add(key: string): void {
    if (this.keys.has(key) || this.limits.unknownKeyEntries === 0) return;
    const cost = key.length + UNKNOWN_ENTRY_OVERHEAD;
    if (cost > this.limits.unknownKeyBytes) return;
    this.keys.add(key);
    this.used += cost;
    for (const old of this.keys) {
      if (this.keys.size <= this.limits.unknownKeyEntries && this.used <= this.limits.unknownKeyBytes) break;
      this.keys.delete(old);
      this.used -= old.length + UNKNOWN_ENTRY_OVERHEAD;
    }
  }

  clear(): void {
    this.keys.clear();
    this.used = 0;
  }

  get size(): number {
    return this.keys.size;
  }

  /** Estimated bytes held: characters plus UNKNOWN_ENTRY_OVERHEAD per key. */
  get bytes(): number {
    return this.used;
  }
}
const BEARER = /^bearer +(\S+) *$/i;
const REALM = 'Bearer realm="refrain"';

export class Guard {
  private known = new Map<string, KeyRecord>();
  /** Unknown and revoked keys; exposed for tests and metrics. */
  readonly unknown: UnknownKeys;
  /** Parsed scope strings, shared by every principal with the same scope. */
  private readonly scopeSets = new Map<string, ReadonlySet<string>>();

  /**
   * `refresh` makes this thread's reads see the latest commit. `keysChanged` follows the `KEYS`
   * epoch, which the server's owner bumps when a key or client changed (src/util/epochs.ts): the
   * caches go then.
   */
  constructor(
    private readonly keys: KeyStore,
    private readonly refresh: () => void,
    private readonly keysChanged: EpochWatch,
    private readonly bearer?: BearerAuth,
    limits: GuardLimits = DEFAULT_GUARD_LIMITS,
  ) {
    this.unknown = new UnknownKeys(limits);
  }

  /**
   * The caller, or 401 with a hint saying what is wrong. A token whose signature was not verified
   * yet gives a promise (a first request pays one RS256 verification, about 0.1 ms).
   */
  authenticate(apikey: string | undefined, authorization: string): Principal | Promise<Principal> {
    if (authorization && /^bearer\b/i.test(authorization)) {
      if (apikey) throw new RefrainError('bad_request', 'send either the apikey parameter or an Authorization: Bearer token, not both');
      return this.fromToken(authorization);
    }
    if (!apikey) {
      throw new RefrainError('unauthorized', 'missing apikey parameter (or an Authorization: Bearer token)', this.bearer ? { 'WWW-Authenticate': REALM } : undefined);
    }
    // A string that no key can be is refused before it is hashed, read or cached: a flood of long
    // or odd keys costs nothing but the request.
    if (!isKeyShaped(apikey)) throw new RefrainError('unauthorized', KEY_SHAPE_HINT);
    if (this.keysChanged.moved()) {
      this.refresh();
      this.known = new Map();
      this.unknown.clear();
    }
    const cached = this.known.get(apikey);
    if (cached) return cached;
    if (this.unknown.has(apikey)) throw invalidKey();
    const record = this.keys.lookup(apikey);
    if (!record) {
      this.unknown.add(apikey);
      throw invalidKey();
    }
    if (this.known.size >= MAX_CACHED) this.known = new Map();
    this.known.set(apikey, record);
    return record;
  }

  private fromToken(authorization: string): Principal | Promise<Principal> {
    if (!this.bearer) {
      throw invalidToken('this server accepts API keys (apikey parameter) only: OAuth is not configured');
    }
    const token = BEARER.exec(authorization)?.[1];
    if (!token) throw invalidToken('the Authorization header must be "Bearer <access token>"');
    const cached = this.bearer.tokens.cachedClaims(token);
    if (cached === null) throw invalidToken('the access token is expired or revoked');
    if (cached) return this.principal(cached);
    return this.bearer.tokens.verify(token).then((claims) => {
      if (!claims) throw invalidToken('the access token is invalid, expired or revoked');
      return this.principal(claims);
    });
  }

  private principal(claims: AccessClaims): Principal {
    const client = this.bearer?.clients.get(claims.client_id);
    if (!client || client.revoked) throw invalidToken('the client of this access token is revoked');
    const scope = claims.scope.join(' ');
    let scopes = this.scopeSets.get(scope);
    if (!scopes) {
      scopes = new Set(claims.scope);
      if (this.scopeSets.size >= MAX_CACHED) this.scopeSets.clear();
      this.scopeSets.set(scope, scopes);
    }
    return {
      key_id: `oauth:${client.client_id}`,
      plan: client.plan,
      quota: client.quota,
      rate: client.rate,
      country: client.country,
      label: client.name,
      created: client.created,
      revoked: null,
      scopes,
      sub: claims.sub,
    };
  }
}

/** 403 for a token without the scope a method needs (RFC 6750 §3.1 insufficient_scope). */
export function requireScope(principal: Principal, scope: ApiScope): void {
  if (!principal.scopes || principal.scopes.has(scope)) return;
  throw new RefrainError('forbidden', `Forbidden: this access token lacks the ${scope} scope`, {
    'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${scope}"`,
  });
}

const invalidKey = () => new RefrainError('unauthorized', 'invalid or revoked apikey');

function invalidToken(description: string): RefrainError {
  return new RefrainError('unauthorized', description, { 'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="${description}"` });
}
