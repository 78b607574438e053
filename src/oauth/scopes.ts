/**
 * The OAuth scope vocabulary (docs/oauth.md): OpenID Connect's `openid profile email`, and the API
 * scopes a Bearer token needs on `/ws/1.1/`. Which scope an API method needs is declared on the
 * method (`ApiMethod.scope`), `catalog:read` when it says nothing.
 */
export const OIDC_SCOPES = ['openid', 'profile', 'email'] as const;
export const API_SCOPES = ['catalog:read', 'fingerprint', 'works:write', 'contributions:write', 'feeds:read'] as const;
export const SCOPES = [...OIDC_SCOPES, ...API_SCOPES] as const;

export type OidcScope = (typeof OIDC_SCOPES)[number];
export type ApiScope = (typeof API_SCOPES)[number];
export type Scope = (typeof SCOPES)[number];

/** The scopes the authorization code flow must ask for (spec: "must include profile and email"). */
export const REQUIRED_USER_SCOPES: readonly Scope[] = ['profile', 'email'];

const KNOWN = new Set<string>(SCOPES);

export const isScope = (s: string): s is Scope => KNOWN.has(s);
export const isApiScope = (s: string): s is ApiScope => (API_SCOPES as readonly string[]).includes(s);

/**
 * The scopes of a space-separated `scope` value (RFC 6749 §3.3), deduplicated in the order given;
 * `unknown` lists those that are not Refrain scopes.
 */
export function parseScope(value: string | undefined): { scopes: string[]; unknown: string[] } {
  const scopes = [...new Set((value ?? '').split(' ').filter(Boolean))];
  return { scopes, unknown: scopes.filter((s) => !KNOWN.has(s)) };
}

/** A scope list as the `scope` string of token responses and introspection. */
export const formatScope = (scopes: Iterable<string>): string => [...scopes].join(' ');
