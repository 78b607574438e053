/**
 * The OAuth authorization server on the uWS app (docs/oauth.md): `openOAuth` opens the stores and
 * the signing keys before the server listens; `mountOAuth` builds the token service once the
 * issuer is known (it defaults to the server's base URL, which holds the port chosen at listen)
 * and mounts the endpoints. Their access log lines never hold a query or a body: see http.ts.
 */
import type { Logger } from 'pino';
import type { RootDatabase } from 'lmdb';
import type { TemplatedApp } from '../http/uws.js';
import { ClientStore } from './clients.js';
import { UserStore } from './users.js';
import { GrantStore } from './grants.js';
import { SigningKeys } from './signing-keys.js';
import { TokenService } from './tokens.js';
import { LoginThrottle, type Throttle, SessionStore } from './sessions.js';
import { SignIn } from './signin.js';
import { loadOrCreateSecret } from '../util/secret.js';
import { Authorization, pageFailure } from './authorize.js';
import { tokenEndpoint } from './token-endpoint.js';
import { introspectionEndpoint } from './introspection.js';
import { discoveryDocument, jwksDocument } from './discovery.js';
import { jsonFailure, oauthRoute } from './http.js';
import { route } from '../http/route.js';

export interface OAuthStores {
  clients: ClientStore;
  users: UserStore;
  grants: GrantStore;
  keys: SigningKeys;
  sessions: SessionStore;
  signin: SignIn;
  throttle: Throttle;
}

/** The limits of the sign-in pages (docs/operations.md "Limits: OAuth sign-in"). */
export interface OAuthLimits {
  /** Lifetime of a sign-in token (an authorization request waiting for login and consent), ms. */
  signinTtlMs: number;
  /** Logged-in sessions kept per client address. */
  sessionsPerAddress: number;
  /** Login attempts (not successes) per e-mail and per client address within `loginWindowMs`. */
  loginAttempts: number;
  loginWindowMs: number;
}

export const DEFAULT_OAUTH_LIMITS: OAuthLimits = { signinTtlMs: 3600_000, sessionsPerAddress: 20, loginAttempts: 5, loginWindowMs: 15 * 60_000 };

/** The stores in the catalog's LMDB environment and the signing keys of `dataDir` (created on first start). */
export async function openOAuth(root: RootDatabase, dataDir: string, clock: () => number, limits: OAuthLimits = DEFAULT_OAUTH_LIMITS): Promise<OAuthStores> {
  const sessions = new SessionStore(root, clock, { perAddress: limits.sessionsPerAddress, requestTtlMs: limits.signinTtlMs });
  return {
    clients: new ClientStore(root),
    users: new UserStore(root),
    grants: new GrantStore(root, clock),
    keys: await SigningKeys.open(dataDir),
    sessions,
    signin: new SignIn(loadOrCreateSecret(dataDir, 'oauth-signin.key'), limits.signinTtlMs, clock),
    throttle: new LoginThrottle(clock, limits.loginAttempts, limits.loginWindowMs),
  };
}

export interface MountOptions {
  /** The issuer identifier, byte for byte as published. */
  issuer: string;
  /** Access and ID token lifetime, seconds. */
  accessTtl: number;
  insecureCookies: boolean;
  logger: Logger;
  /** One log line per request (path only: see http.ts). */
  accessLog: boolean;
  clock: () => number;
  /** Purge expired sessions from here (once per server: false on all but one HTTP thread). */
  purge?: boolean;
}

/**
 * Mount the OAuth endpoints on `app` and return the token service the API's guard verifies with.
 * Expired sessions are purged from now on (at once, then periodically): `sessions.close()` stops it.
 */
export function mountOAuth(app: TemplatedApp, stores: OAuthStores, options: MountOptions): TokenService {
  const { clients, users, grants, keys, sessions, signin, throttle } = stores;
  const { issuer, logger, clock, accessLog } = options;
  const tokens = new TokenService({ keys, grants, clients, users, issuer, accessTtl: options.accessTtl, clock });
  const pages = new Authorization({ clients, users, grants, sessions, signin, throttle, issuer, insecureCookies: options.insecureCookies, clock });
  const page = oauthRoute({ logger, accessLog, fail: pageFailure });
  const form = oauthRoute({ logger, accessLog, fail: pageFailure, body: true });
  const endpoint = oauthRoute({ logger, accessLog, fail: jsonFailure, body: true });
  const document = oauthRoute({ logger, accessLog, fail: jsonFailure });
  if (options.purge !== false) sessions.startPurging((err) => logger.error({ err }, 'purging expired OAuth sessions failed'));

  app.get('/oauth/authorize', route(pages.authorize, page));
  app.get('/oauth/login', route(pages.show, page));
  app.get('/oauth/consent', route(pages.show, page));
  app.post('/oauth/login', route(pages.login, form));
  app.post('/oauth/consent', route(pages.consent, form));
  app.post('/oauth/token', route(tokenEndpoint({ clients, grants, tokens }), endpoint));
  app.post('/oauth/token-metadata', route(introspectionEndpoint({ clients, tokens }), endpoint));
  const discovery = route(discoveryDocument(issuer), document);
  app.get('/.well-known/oauth-authorization-server', discovery);
  app.get('/.well-known/openid-configuration', discovery);
  app.get('/oauth/jwks', route(jwksDocument(keys), document));
  return tokens;
}
