/**
 * OAuth test helpers: a registered client and a user on the test server, and a minimal browser
 * (a cookie jar, no redirect following) that signs in and consents through the real HTML pages.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Test } from 'tap';
import type { TestServer } from './server.js';
import type { NewClient } from '../../src/oauth/clients.js';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
export const PASSWORD = 'correct horse battery staple';

export interface TestClient {
  id: string;
  secret: string;
}

/** A client of every grant type with every scope, unless `spec` says otherwise. */
export function registerClient(s: TestServer, spec: Partial<NewClient> = {}): TestClient {
  const { clientSecret, record } = s.server.oauth.clients.create({
    name: 'Label Portal',
    redirectUris: [REDIRECT_URI],
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
    scopes: ['openid', 'profile', 'email', 'catalog:read', 'fingerprint'],
    plan: 'enterprise',
    ...spec,
  });
  return { id: record.client_id, secret: clientSecret };
}

let users = 0;

/** A user with PASSWORD and a fresh e-mail address. */
export async function createUser(s: TestServer, name = 'Ada Artist'): Promise<{ id: string; email: string }> {
  const user = await s.server.oauth.users.create({ email: `artist${++users}-${process.pid}@example.com`, name, password: PASSWORD });
  return { id: user.user_id, email: user.email };
}

/** openid-client's configuration for the server (plain HTTP in tests). */
export function discover(s: TestServer, c: TestClient, auth = client.ClientSecretBasic(c.secret)): Promise<client.Configuration> {
  return client.discovery(new URL(s.server.url), c.id, undefined, auth, { execute: [client.allowInsecureRequests] });
}

export interface Page {
  /** The URL the page was fetched from (forms' actions are relative to it). */
  url: URL;
  status: number;
  headers: Headers;
  text: string;
  /** Absolute Location of a redirect. */
  location?: URL;
}

/** A browser that keeps cookies and never follows redirects: tests follow them step by step. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly setCookies: string[] = [];

  async get(url: string | URL): Promise<Page> {
    return this.send(new URL(url), { method: 'GET' });
  }

  async post(url: string | URL, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    return this.send(new URL(url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  private async send(url: URL, init: RequestInit): Promise<Page> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    for (const set of res.headers.getSetCookie()) {
      this.setCookies.push(set);
      const [pair] = set.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    return { url, status: res.status, headers: res.headers, text: await res.text(), location: location ? new URL(location, url) : undefined };
  }
}

const unescape = (s: string): string =>
  s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The form of a page: its action (absolute) and its hidden fields. */
export function form(page: Page): { action: URL; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]*)"/.exec(page.text);
  if (!action) throw new Error(`no form on the page (status ${page.status}): ${page.text.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const m of page.text.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescape(m[1])] = unescape(m[2]);
  return { action: new URL(unescape(action[1]), page.url), fields };
}

/**
 * Drive the pages from the authorization URL to the redirect back to the client: log in (unless
 * the browser's session is logged in already), then Allow or Deny. Returns the callback URL.
 */
export async function signInAndConsent(
  browser: Browser,
  authorizationUrl: URL,
  login: { email: string; password?: string },
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  let page = await browser.get(authorizationUrl);
  if (page.status !== 200) throw new Error(`authorization page answered ${page.status}: ${page.text.slice(0, 300)}`);
  if (page.text.includes('name="password"')) {
    const login1 = form(page);
    const posted = await browser.post(login1.action, { ...login1.fields, email: login.email, password: login.password ?? PASSWORD });
    if (posted.status !== 303 || !posted.location) throw new Error(`login answered ${posted.status}`);
    page = await browser.get(posted.location);
  }
  if (!page.text.includes('name="decision"')) throw new Error(`expected the consent page, got: ${page.text.slice(0, 300)}`);
  const consent = form(page);
  const answered = await browser.post(consent.action, { ...consent.fields, decision });
  if (answered.status !== 303 || !answered.location) throw new Error(`consent answered ${answered.status}`);
  return answered.location;
}

/**
 * Assert that openid-client's call failed with this OAuth error code (from the error, or from the
 * body of a 401 whose WWW-Authenticate challenge openid-client reports instead).
 */
export async function rejectsWith(t: Test, call: Promise<unknown>, code: string, message: string): Promise<void> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e as { error?: string; response?: Response },
  );
  const body = error?.error === undefined && error?.response ? ((await error.response.json()) as { error?: string }) : undefined;
  t.equal(error?.error ?? body?.error, code, message);
}

/** base64url(SHA-256(verifier)): the S256 code challenge. */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** The authorization URL of a request for `c` (S256 PKCE with `verifier`), with `params` overriding. */
export function authorizationUrl(s: TestServer, c: TestClient, verifier: string, params: Record<string, string | undefined> = {}): URL {
  const url = new URL('/oauth/authorize', s.url);
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: c.id,
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile email catalog:read',
    state: 'state-1',
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

/** An authorization code for `c` and the user, through the pages; and its verifier. */
export async function obtainCode(s: TestServer, c: TestClient, email: string, scope?: string): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const callback = await signInAndConsent(new Browser(), authorizationUrl(s, c, verifier, scope ? { scope } : {}), { email });
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  return { code, verifier };
}

export interface TokenReply {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/** A raw POST to an OAuth endpoint; `basic` sends client_secret_basic credentials. */
export async function postForm(s: TestServer, path: string, fields: Record<string, string>, options: { basic?: TestClient; headers?: Record<string, string> } = {}): Promise<TokenReply> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...options.headers };
  if (options.basic) headers.authorization = `Basic ${Buffer.from(`${options.basic.id}:${options.basic.secret}`).toString('base64')}`;
  const res = await fetch(new URL(path, s.url), { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}
