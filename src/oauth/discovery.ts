/**
 * The public metadata of the authorization server: RFC 8414's
 * `/.well-known/oauth-authorization-server`, OpenID Connect Discovery's
 * `/.well-known/openid-configuration` (the same document: it satisfies both) and the JWKS at
 * `/oauth/jwks`. Endpoint URLs are the issuer followed by the path, so a server published under
 * `--issuer https://auth.example.com` advertises `https://auth.example.com/oauth/token`.
 */
import type { SigningKeys } from './signing-keys.js';
import type { Outgoing } from './http.js';
import { GRANT_TYPES } from './clients.js';
import { SCOPES } from './scopes.js';

const CLIENT_AUTH = ['client_secret_basic', 'client_secret_post'];

/** The metadata document of an issuer. */
export function metadata(issuer: string): Record<string, unknown> {
  const base = issuer.replace(/\/+$/, '');
  return {
    issuer,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    jwks_uri: `${base}/oauth/jwks`,
    introspection_endpoint: `${base}/oauth/token-metadata`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH,
    scopes_supported: [...SCOPES],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'name', 'email', 'email_verified'],
    authorization_response_iss_parameter_supported: true,
  };
}

/** Public documents: any origin may read them, and caches may keep them a little while. */
function publicJson(body: string): Outgoing {
  return {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
    },
    cookies: [],
    body,
  };
}

/** The handler of both discovery documents (rendered once: nothing in them changes while running). */
export function discoveryDocument(issuer: string): () => Outgoing {
  const body = JSON.stringify(metadata(issuer));
  return () => publicJson(body);
}

/** The JWKS: public keys only, re-read when a rotation changed the key file. */
export function jwksDocument(keys: SigningKeys): () => Promise<Outgoing> {
  return async () => {
    await keys.reload();
    return publicJson(JSON.stringify(keys.jwks()));
  };
}
