/**
 * `POST /oauth/token-metadata`: token introspection (the spec's endpoint, RFC 7662's semantics).
 * The caller authenticates as a client, exactly as at the token endpoint. The token is read from
 * `accessToken` (the spec's name) or `token` (RFC 7662). Anything but a live access token of this
 * server answers exactly `{active: false}`, so the answer tells nothing about why.
 */
import type { ClientStore } from './clients.js';
import type { TokenService } from './tokens.js';
import { OAuthError } from './errors.js';
import { formBody, jsonAnswer, type Incoming, type Outgoing } from './http.js';
import { authenticateClient } from './token-endpoint.js';
import { formatScope } from './scopes.js';

export interface IntrospectionDeps {
  clients: ClientStore;
  tokens: TokenService;
}

export function introspectionEndpoint(deps: IntrospectionDeps): (incoming: Incoming) => Promise<Outgoing> {
  return async (incoming) => {
    const form = formBody(incoming);
    authenticateClient(deps.clients, incoming, form);
    if (form.accessToken !== undefined && form.token !== undefined && form.accessToken !== form.token) {
      throw new OAuthError('invalid_request', 'send the token once, as accessToken or token');
    }
    const token = form.accessToken ?? form.token;
    if (token === undefined) throw new OAuthError('invalid_request', 'accessToken (or token) is required');
    const claims = await deps.tokens.verify(token);
    if (!claims) return jsonAnswer(200, { active: false });
    return jsonAnswer(200, {
      active: true,
      sub: claims.sub,
      client_id: claims.client_id,
      scope: formatScope(claims.scope),
      exp: claims.exp,
      iat: claims.iat,
      iss: claims.iss,
      token_type: 'Bearer',
    });
  };
}
