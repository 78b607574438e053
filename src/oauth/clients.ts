/**
 * Registered OAuth clients (docs/oauth.md). A client secret is 32 random bytes, base64url, shown
 * once at registration; only its SHA-256 is stored (256 bits of entropy: nothing to brute-force, so
 * a fast hash is enough, as for API keys). A client carries the plan, quota, rate and country its
 * Bearer tokens are metered with, exactly like an API key.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import { DEFAULT_QUOTA, type Plan } from '../auth/keys.js';
import { RefrainError } from '../errors.js';
import { isoSeconds } from '../util/date.js';
import { isScope, type Scope } from './scopes.js';

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export interface ClientRecord {
  client_id: string;
  name: string;
  /** Compared by exact string match at the authorization endpoint. */
  redirect_uris: string[];
  grant_types: GrantType[];
  /** The most a token of this client may carry. */
  scopes: Scope[];
  plan: Plan;
  /** Requests per UTC day, 0 = unlimited. */
  quota: number;
  /** Requests per minute, 0 = unlimited. */
  rate: number;
  /** ISO 3166-1 alpha-2 country whose restrictions apply, or '' for none. */
  country: string;
  created: string;
  revoked: string | null;
}

export interface NewClient {
  name: string;
  redirectUris: string[];
  grantTypes: GrantType[];
  scopes: Scope[];
  plan: Plan;
  quota?: number;
  rate?: number;
  country?: string;
}

interface StoredClient extends ClientRecord {
  /** SHA-256 of the secret. */
  secret_hash: Buffer;
}

const CLIENTS_VERSION = 'oauth-clients:version';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest();
/** Compared against when the client is unknown: no secret hashes to it. */
const DUMMY_HASH = Buffer.alloc(32);

/**
 * Why a redirect URI is refused, or undefined. Absolute `https:` URLs without a fragment
 * (RFC 6749 §3.1.2); plain `http:` only on the loopback host, for development and native apps
 * (RFC 8252 §7.3). No user name or password in the URL.
 */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect URI ${uri} is not an absolute URL`;
  }
  if (uri.includes('#')) return `redirect URI ${uri} has a fragment (RFC 6749 §3.1.2)`;
  if (url.username || url.password) return `redirect URI ${uri} carries credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  if (url.protocol === 'http:') return `redirect URI ${uri} uses http: only localhost, 127.0.0.1 and [::1] may (use https)`;
  return `redirect URI ${uri} must use https (or http on localhost)`;
}

/** Why a client registration is refused, or undefined: the rules `clients create` enforces. */
export function clientSpecProblem(spec: NewClient): string | undefined {
  if (!spec.name.trim() || spec.name.length > 200) return 'the client name must have 1 to 200 characters';
  const unknownGrant = spec.grantTypes.find((g) => !(GRANT_TYPES as readonly string[]).includes(g));
  if (unknownGrant) return `unknown grant type ${unknownGrant} (known: ${GRANT_TYPES.join(', ')})`;
  if (spec.grantTypes.length === 0) return 'name at least one grant type';
  const grants = new Set(spec.grantTypes);
  if (grants.has('refresh_token') && !grants.has('authorization_code')) {
    return 'the refresh_token grant needs authorization_code (refresh tokens come only from the code flow)';
  }
  const unknownScope = spec.scopes.find((s) => !isScope(s));
  if (unknownScope) return `unknown scope ${unknownScope}`;
  if (spec.scopes.length === 0) return 'name at least one scope';
  if (grants.has('authorization_code') && spec.redirectUris.length === 0) {
    return 'the authorization code flow needs at least one redirect URI';
  }
  for (const uri of spec.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) return problem;
  }
  return undefined;
}

const publicPart = ({ secret_hash: _, ...record }: StoredClient): ClientRecord => record;

export class ClientStore {
  private readonly db: Database<StoredClient, string>;
  private readonly meta: Database<unknown, string>;

  constructor(root: RootDatabase) {
    this.db = root.openDB<StoredClient, string>({ name: 'oauth-clients' });
    this.meta = root.openDB<unknown, string>({ name: 'meta' });
  }

  /** Register a client; the secret is returned once and never stored. RefrainError('bad_request') on a bad spec. */
  create(spec: NewClient): { clientSecret: string; record: ClientRecord } {
    const problem = clientSpecProblem(spec);
    if (problem) throw new RefrainError('bad_request', problem);
    const clientSecret = randomBytes(32).toString('base64url');
    const record: ClientRecord = {
      client_id: `c_${randomBytes(8).toString('hex')}`,
      name: spec.name.trim(),
      redirect_uris: [...new Set(spec.redirectUris)],
      grant_types: [...new Set(spec.grantTypes)],
      scopes: [...new Set(spec.scopes)],
      plan: spec.plan,
      quota: spec.quota ?? DEFAULT_QUOTA[spec.plan],
      rate: spec.rate ?? 0,
      country: (spec.country ?? '').toUpperCase(),
      created: isoSeconds(Date.now()),
      revoked: null,
    };
    this.db.transactionSync(() => {
      this.db.putSync(record.client_id, { ...record, secret_hash: sha256(clientSecret) });
      this.bumpVersion();
    });
    return { clientSecret, record };
  }

  /** Every client, oldest first, without secrets. */
  list(): ClientRecord[] {
    // Oldest first; `created` is to the second, so clients created in the same second go by name.
    return [...this.db.getRange()].map((e) => publicPart(e.value)).sort((a, b) => a.created.localeCompare(b.created) || a.name.localeCompare(b.name));
  }

  /** Revoke a client: its tokens stop verifying at once. RefrainError('not_found') when unknown. */
  revoke(clientId: string): ClientRecord {
    return this.db.transactionSync(() => {
      const stored = this.db.get(clientId);
      if (!stored) throw new RefrainError('not_found', `no client with id ${clientId}`);
      const revoked = { ...stored, revoked: stored.revoked ?? isoSeconds(Date.now()) };
      this.db.putSync(clientId, revoked);
      this.bumpVersion();
      return publicPart(revoked);
    });
  }

  /** A client, live or revoked (check `.revoked`). */
  get(clientId: string): ClientRecord | undefined {
    const stored = this.db.get(clientId);
    return stored && publicPart(stored);
  }

  /** The live client whose secret this is; undefined for an unknown or revoked client or a wrong secret. */
  authenticate(clientId: string, secret: string): ClientRecord | undefined {
    const stored = this.db.get(clientId);
    // Hash and compare even for an unknown client, so the answer takes the same time.
    const expected = stored?.secret_hash ?? DUMMY_HASH;
    const ok = timingSafeEqual(sha256(secret), expected);
    return ok && stored && !stored.revoked ? publicPart(stored) : undefined;
  }

  /** A counter bumped on every change, for caches in other processes. */
  version(): number {
    return (this.meta.get(CLIENTS_VERSION) as number | undefined) ?? 0;
  }

  private bumpVersion(): void {
    this.meta.putSync(CLIENTS_VERSION, this.version() + 1);
  }
}
