/**
 * `POST /oauth/token` (RFC 6749 §3.2, §4.1.3, §4.4, §6) and client authentication, which
 * introspection shares. Confidential clients only: `client_secret_basic` or `client_secret_post`,
 * never both. Answers are JSON with `Cache-Control: no-store` (http.ts `jsonAnswer`).
 */
import type { ClientRecord, ClientStore, GrantType } from './clients.js';
import type { GrantStore } from './grants.js';
import type { TokenService } from './tokens.js';
import { OAuthError } from './errors.js';
import { formBody, jsonAnswer, type Incoming, type Outgoing } from './http.js';
import { isApiScope, parseScope } from './scopes.js';

export interface TokenEndpointDeps {
  clients: ClientStore;
  grants: GrantStore;
  tokens: TokenService;
}

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="refrain"' };

/** RFC 6749 §2.3.1: each half of the Basic credentials is form-urlencoded before base64. */
function formDecode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

/** The `client_secret_basic` credentials of an Authorization header, or undefined when it has none. */
function basicCredentials(authorization: string): { id: string; secret: string } | undefined {
  if (!authorization) return undefined;
  const bad = () => new OAuthError('invalid_client', 'client authentication failed', BASIC_CHALLENGE);
  const match = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization);
  if (!match) throw bad();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) throw bad();
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw bad(); // malformed percent-encoding
  }
}

/**
 * The client making a token or introspection request. Basic credentials and `client_secret` in the
 * body at once are refused (RFC 6749 §2.3: one method per request); a failed Basic authentication
 * answers 401 with a Basic challenge (§5.2).
 */
export function authenticateClient(clients: ClientStore, incoming: Incoming, form: Record<string, string>): ClientRecord {
  const basic = basicCredentials(incoming.authorization);
  if (basic) {
    if (form.client_secret !== undefined) throw new OAuthError('invalid_request', 'use one client authentication method: Basic or client_secret in the body, not both');
    if (form.client_id !== undefined && form.client_id !== basic.id) throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials');
    const client = clients.authenticate(basic.id, basic.secret);
    if (!client) throw new OAuthError('invalid_client', 'client authentication failed', BASIC_CHALLENGE);
    return client;
  }
  if (form.client_id === undefined || form.client_secret === undefined) {
    throw new OAuthError('invalid_client', 'client authentication required (client_secret_basic or client_secret_post)', BASIC_CHALLENGE);
  }
  const client = clients.authenticate(form.client_id, form.client_secret);
  if (!client) throw new OAuthError('invalid_client', 'client authentication failed');
  return client;
}

const required = (form: Record<string, string>, name: string): string => {
  const value = form[name];
  if (value === undefined) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
};

function requireGrantType(client: ClientRecord, grantType: GrantType): void {
  if (!client.grant_types.includes(grantType)) throw new OAuthError('unauthorized_client', `the client is not registered for ${grantType}`);
}

export function tokenEndpoint(deps: TokenEndpointDeps): (incoming: Incoming) => Promise<Outgoing> {
  return async (incoming) => {
    const form = formBody(incoming);
    const client = authenticateClient(deps.clients, incoming, form);
    const grantType = required(form, 'grant_type');
    const { tokens } = deps;
    switch (grantType) {
      case 'authorization_code': {
        requireGrantType(client, 'authorization_code');
        const code = required(form, 'code');
        const redirectUri = required(form, 'redirect_uri');
        const verifier = required(form, 'code_verifier');
        const { grant, refreshToken } = await deps.grants.redeemCode(code, client.client_id, redirectUri, verifier);
        return jsonAnswer(200, await tokens.issueForGrant(grant, grant.scope, refreshToken));
      }
      case 'refresh_token': {
        requireGrantType(client, 'refresh_token');
        const refreshToken = required(form, 'refresh_token');
        const scope = requestedScope(form.scope);
        const rotated = await deps.grants.refresh(refreshToken, client.client_id, scope);
        return jsonAnswer(200, await tokens.issueForGrant(rotated.grant, rotated.scope, rotated.refreshToken));
      }
      case 'client_credentials': {
        requireGrantType(client, 'client_credentials');
        return jsonAnswer(200, await tokens.issueClientCredentials(client, clientCredentialsScope(client, form.scope)));
      }
      default:
        throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported (authorization_code, refresh_token, client_credentials)`);
    }
  };
}

/** A `scope` parameter as a list; unknown scopes are invalid_scope. */
function requestedScope(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const { scopes, unknown } = parseScope(value);
  if (unknown.length) throw new OAuthError('invalid_scope', `unknown scope ${unknown.join(' ')}`);
  return scopes;
}

/** Client credentials carry API scopes only, within the client's; omitted → all the client's API scopes. */
function clientCredentialsScope(client: ClientRecord, value: string | undefined): string[] {
  const own = client.scopes.filter(isApiScope);
  const asked = requestedScope(value);
  if (asked === undefined) {
    if (own.length === 0) throw new OAuthError('invalid_scope', 'the client has no API scope');
    return own;
  }
  const notApi = asked.filter((s) => !isApiScope(s));
  if (notApi.length) throw new OAuthError('invalid_scope', `client credentials carry API scopes only, not ${notApi.join(' ')}`);
  const outside = asked.filter((s) => !(own as string[]).includes(s));
  if (outside.length) throw new OAuthError('invalid_scope', `the client is not registered for ${outside.join(' ')}`);
  if (asked.length === 0) throw new OAuthError('invalid_scope', 'scope is empty');
  return asked;
}
