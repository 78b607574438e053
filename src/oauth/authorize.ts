/**
 * The authorization endpoint (RFC 6749 §4.1.1, RFC 7636, RFC 9207) and its two pages.
 *
 * `GET /oauth/authorize` validates the request; errors that cannot safely go back to the client
 * (unknown or revoked client, unregistered redirect URI) get an HTML page, never a redirect —
 * otherwise the endpoint would be an open redirector. Other errors redirect to the redirect URI
 * with `error`, `error_description`, `state` and `iss`. A valid request goes, without a write, into
 * a signed sign-in token on the login page (signin.ts), or into the logged-in session, whose consent
 * page is shown. A session is written only at a successful login.
 *
 * `POST /oauth/login` and `POST /oauth/consent` check the session's CSRF token and answer 303:
 * to the consent page after a login, to the client with `code`, `state` and `iss` after "Allow".
 * Pages navigate with relative URLs (`login`, `consent`), so a proxy may mount /oauth/ anywhere.
 */
import { randomBytes } from 'node:crypto';
import type { ClientRecord, ClientStore } from './clients.js';
import type { GrantStore } from './grants.js';
import { normalizeEmail, type UserRecord, type UserStore } from './users.js';
import { csrfMatches, type Throttle, type PendingAuthorization, type Session, type SessionStore } from './sessions.js';
import type { SignIn } from './signin.js';
import { cookieValue, formBody, parseParams, redirect, type Incoming, type Outgoing } from './http.js';
import { consentPage, errorPage, loginPage } from './pages.js';
import { isScope, REQUIRED_USER_SCOPES } from './scopes.js';
import { OAuthError, PageError } from './errors.js';
import { isError } from '../errors.js';

export interface AuthorizeDeps {
  clients: ClientStore;
  users: UserStore;
  grants: GrantStore;
  sessions: SessionStore;
  signin: SignIn;
  throttle: Throttle;
  issuer: string;
  /** Plain-HTTP development: the session cookie without Secure (and without the __Host- prefix). */
  insecureCookies: boolean;
  /** Milliseconds since the epoch. */
  clock: () => number;
}

/** RFC 7636 §4.2: BASE64URL(SHA-256(verifier)) is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** state and nonce travel in the sign-in token and are stored with the session: bounded. */
const MAX_STATE = 1024;
/** A session cookie value: 256 random bits, base64url (a logged-in session's id, or a browser's before login). */
const COOKIE_ID = /^[A-Za-z0-9_-]{43}$/;

/** `uri` with `params` added to its query, the registered string kept byte for byte. */
function withParams(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return `${uri}${uri.includes('?') ? '&' : '?'}${query}`;
}

const expired = (): PageError =>
  new PageError(400, 'This sign-in has expired', 'Go back to the application you came from and start again.');

const refused = (): PageError =>
  new PageError(403, 'Request refused', "The form did not come from this site's current sign-in page (or the session expired). Go back to the application and start again.");

const unknownClient = (): PageError =>
  new PageError(400, 'Unknown application', 'The application that sent you here is not registered, or no longer is. Nothing was shared with it.');

export class Authorization {
  private readonly cookieName: string;

  constructor(private readonly deps: AuthorizeDeps) {
    // The __Host- prefix makes browsers refuse the cookie unless Secure, Path=/ and no Domain.
    this.cookieName = deps.insecureCookies ? 'refrain_session' : '__Host-refrain_session';
  }

  /** `GET /oauth/authorize`. */
  authorize = async (incoming: Incoming): Promise<Outgoing> => {
    const { params, duplicate } = parseParams(incoming.query);
    if (duplicate === 'client_id' || duplicate === 'redirect_uri') throw new PageError(400, 'Invalid request', `The parameter ${duplicate} is repeated.`);
    const client = params.client_id === undefined ? undefined : this.deps.clients.get(params.client_id);
    if (!client || client.revoked) throw unknownClient();
    const redirectUri = params.redirect_uri;
    // Exact string comparison (RFC 9700 §2.1): no normalisation, no prefix or pattern matching.
    if (redirectUri === undefined || !client.redirect_uris.includes(redirectUri)) {
      throw new PageError(400, 'Invalid redirect address', `The application sent a redirect address that is not registered for ${client.name}. Nothing was shared with it.`);
    }
    const problem = this.problem(client, params, duplicate);
    if (problem) {
      return redirect(withParams(redirectUri, { error: problem.code, error_description: problem.description, state: params.state, iss: this.deps.issuer }));
    }
    const pending: PendingAuthorization = {
      clientId: client.client_id,
      redirectUri,
      scope: params.scope.split(' ').filter(Boolean),
      state: params.state,
      codeChallenge: params.code_challenge,
      created: this.deps.clock(),
    };
    if (params.nonce !== undefined) pending.nonce = params.nonce;

    const sid = cookieValue(incoming.cookie, this.cookieName);
    const session = this.deps.sessions.get(sid);
    // Logged in: the request joins the session (a bounded rewrite), and consent is asked at once.
    if (sid && session && this.loggedIn(session)) {
      const added = await this.deps.sessions.addRequest(sid, pending);
      if (added) return this.step(client, sid, added.session, added.requestId, false);
    }
    // Not logged in: nothing is written; the request travels in a signed token.
    return this.signInPage(client, pending, sid, false);
  };

  /** `GET /oauth/login` and `GET /oauth/consent`: the page of a request in progress (after a failed login, or after login). */
  show = (incoming: Incoming): Outgoing => {
    const { params } = parseParams(incoming.query);
    const sid = cookieValue(incoming.cookie, this.cookieName);
    const session = this.deps.sessions.get(sid);
    const kept = session && this.deps.sessions.request(session, params.request);
    // A request of the logged-in session (a request id), or one before login (a sign-in token).
    const pending = kept ?? this.deps.signin.open(params.request);
    if (!sid || !pending) throw expired();
    const client = this.deps.clients.get(pending.clientId);
    if (!client || client.revoked) throw unknownClient();
    if (kept && session) return this.step(client, sid, session, params.request, params.failed === '1');
    return this.signInPage(client, pending, sid, params.failed === '1');
  };

  /** `POST /oauth/login`: e-mail and password, throttled; 303 to the consent page with a new session. */
  login = async (incoming: Incoming): Promise<Outgoing> => {
    const form = formBody(incoming);
    const sid = cookieValue(incoming.cookie, this.cookieName);
    // The login form's CSRF token is the HMAC of the cookie it was shown with; its request, a sign-in token.
    if (!sid || !COOKIE_ID.test(sid) || !this.deps.signin.csrfMatches(sid, form.csrf)) throw refused();
    const pending = this.deps.signin.open(form.request);
    if (!pending) throw expired();
    const email = normalizeEmail(form.email ?? '');
    const keys = [`email:${email}`, `ip:${incoming.ip}`];
    // Counted before the password is checked: concurrent guesses see each other (a failure until it succeeds).
    const counted = await this.deps.throttle.begin(keys);
    if ('retryAfter' in counted) {
      const wait = counted.retryAfter;
      throw new PageError(429, 'Too many attempts', `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minute(s).`, { 'retry-after': String(wait) });
    }
    const user = email && form.password ? await this.deps.users.verifyPassword(email, form.password) : undefined;
    if (!user) return redirect(`login?request=${encodeURIComponent(form.request)}&failed=1`);
    this.deps.throttle.succeeded(counted.attempt);
    // The first write of the sign-in: a new session (new id: no fixation), replacing the browser's old one if any.
    const replaces = this.deps.sessions.get(sid) ? sid : undefined;
    const next = await this.deps.sessions.login({ userId: user.user_id, ip: incoming.ip, request: pending, replaces });
    return redirect(`consent?request=${encodeURIComponent(next.requestId)}`, [this.cookie(next.id, next.session.expires)]);
  };

  /** `POST /oauth/consent`: Allow issues a code, Deny answers access_denied; both 303 to the client. */
  consent = async (incoming: Incoming): Promise<Outgoing> => {
    const form = formBody(incoming);
    const sid = cookieValue(incoming.cookie, this.cookieName);
    const session = this.deps.sessions.get(sid);
    if (!sid || !session || !csrfMatches(session, form.csrf)) throw refused();
    if (form.decision !== 'allow' && form.decision !== 'deny') throw new PageError(400, 'Invalid request', 'Choose Allow or Deny.');
    const user = this.loggedIn(session);
    if (!user || session.authTime === undefined) return redirect(`login?request=${encodeURIComponent(form.request ?? '')}`);
    const pending = form.request === undefined ? undefined : await this.deps.sessions.takeRequest(sid, form.request);
    if (!pending) throw expired();
    const client = this.deps.clients.get(pending.clientId);
    if (!client || client.revoked) throw unknownClient();
    const answer = (params: Record<string, string>) => redirect(withParams(pending.redirectUri, { ...params, state: pending.state, iss: this.deps.issuer }));
    if (form.decision === 'deny') return answer({ error: 'access_denied', error_description: 'the user denied the request' });
    const code = await this.deps.grants.issueCode({
      clientId: client.client_id,
      userId: user.user_id,
      redirectUri: pending.redirectUri,
      scope: pending.scope,
      codeChallenge: pending.codeChallenge,
      nonce: pending.nonce,
      authTime: session.authTime,
    });
    return answer({ code });
  };

  /** The error a valid client's request must be answered with at its redirect URI, or undefined. */
  private problem(client: ClientRecord, params: Record<string, string>, duplicate: string | undefined): OAuthError | undefined {
    if (duplicate) return new OAuthError('invalid_request', `parameter ${duplicate} is repeated`);
    if (params.response_type === undefined) return new OAuthError('invalid_request', 'response_type is required');
    if (params.response_type !== 'code') return new OAuthError('unsupported_response_type', 'response_type must be code');
    if (params.state === undefined) return new OAuthError('invalid_request', 'state is required');
    if (params.state.length > MAX_STATE || (params.nonce?.length ?? 0) > MAX_STATE) return new OAuthError('invalid_request', `state and nonce have at most ${MAX_STATE} characters`);
    const scopes = (params.scope ?? '').split(' ').filter(Boolean);
    const missing = REQUIRED_USER_SCOPES.filter((s) => !scopes.includes(s));
    if (missing.length) return new OAuthError('invalid_scope', `scope must include ${missing.join(' and ')}`);
    // openid only adds an ID token about the profile and e-mail already asked for; the rest must be registered.
    const refused = scopes.filter((s) => !isScope(s) || (s !== 'openid' && !(client.scopes as string[]).includes(s)));
    if (refused.length) return new OAuthError('invalid_scope', `scope not allowed for this client: ${refused.join(' ')}`);
    if (params.code_challenge === undefined) return new OAuthError('invalid_request', 'code_challenge is required (PKCE with S256)');
    if (params.code_challenge_method !== 'S256') return new OAuthError('invalid_request', 'code_challenge_method must be S256');
    if (!S256_CHALLENGE.test(params.code_challenge)) return new OAuthError('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
    if (!client.grant_types.includes('authorization_code')) return new OAuthError('unauthorized_client', 'the client is not registered for the authorization code flow');
    return undefined;
  }

  /** The consent page of a request kept in a session, or the login page when its user may no longer log in. */
  private step(client: ClientRecord, sid: string, session: Session, requestId: string, failed: boolean): Outgoing {
    const pending = session.requests[requestId];
    const user = this.loggedIn(session);
    if (!user) return this.signInPage(client, pending, sid, failed);
    return consentPage({
      clientName: client.name,
      redirectUri: pending.redirectUri,
      scopes: pending.scope,
      userName: user.name,
      userEmail: user.email,
      csrf: session.csrf,
      requestId,
    });
  }

  /**
   * The login page of a request, written nowhere: the request goes into a signed sign-in token and
   * the CSRF token is the HMAC of the browser's cookie (a new random one when it has none).
   */
  private signInPage(client: ClientRecord, pending: PendingAuthorization, sid: string | undefined, failed: boolean): Outgoing {
    const stored = this.deps.sessions.get(sid) !== undefined;
    const browserId = sid && COOKIE_ID.test(sid) ? sid : randomBytes(32).toString('base64url');
    const cookies = stored ? [] : [this.cookie(browserId, this.deps.clock() + this.deps.signin.ttlMs)];
    return loginPage({ clientName: client.name, csrf: this.deps.signin.csrf(browserId), requestId: this.deps.signin.seal(pending), failed, cookies });
  }

  private loggedIn(session: Session): UserRecord | undefined {
    const user = session.userId === undefined ? undefined : this.deps.users.get(session.userId);
    return user && !user.disabled ? user : undefined;
  }

  private cookie(id: string, expires: number): string {
    const maxAge = Math.max(0, Math.floor((expires - this.deps.clock()) / 1000));
    return `${this.cookieName}=${id}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${this.deps.insecureCookies ? '' : '; Secure'}`;
  }
}

/** The page answering an error of the authorization pages. */
export function pageFailure(e: unknown): Outgoing {
  if (e instanceof PageError) return errorPage(e.status, e.title, e.detail, e.headers);
  if (e instanceof OAuthError) return errorPage(400, 'Invalid request', e.description);
  if (isError(e, 'too_large')) return errorPage(413, 'Invalid request', 'The form is too large.');
  return errorPage(500, 'Something went wrong', 'Please try again later.');
}
