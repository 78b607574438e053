/**
 * The authorization endpoint and its pages: what is refused with a page and what is redirected,
 * PKCE downgrades, CSRF, sessions and their cookies, security headers, escaping, throttling.
 */
import t, { type Test } from 'tap';
import { startTestServer } from '../helpers/server.js';
import { authorizationUrl, Browser, createUser, form, REDIRECT_URI, registerClient, signInAndConsent, type Page } from '../helpers/oauth.js';

const VERIFIER = 'v'.repeat(43);

/** The headers every page of the authorization endpoint carries. */
function assertPageHeaders(t: Test, page: Page, what: string): void {
  t.equal(page.headers.get('x-frame-options'), 'DENY', `${what}: X-Frame-Options`);
  const csp = page.headers.get('content-security-policy') ?? '';
  t.match(csp, /frame-ancestors 'none'/, `${what}: CSP frame-ancestors`);
  t.match(csp, /default-src 'none'/, `${what}: CSP default-src`);
  t.notMatch(csp, /unsafe-inline|script-src/, `${what}: no inline anything, no script`);
  t.equal(page.headers.get('referrer-policy'), 'no-referrer', `${what}: Referrer-Policy`);
  t.equal(page.headers.get('cache-control'), 'no-store', `${what}: Cache-Control`);
  t.match(page.headers.get('content-type'), /^text\/html; charset=utf-8/, `${what}: HTML`);
}

t.test('authorization endpoint (plain-HTTP cookies)', async (t) => {
  const s = await startTestServer(t, { flags: ['--oauth-insecure-cookies'] });
  const https = 'https://app.example.com/cb';
  const c = registerClient(s, { redirectUris: [REDIRECT_URI, https] });
  const user = await createUser(s);
  const issuer = s.server.url;

  t.test('a redirect URI that is not registered byte for byte gets a 400 page, never a redirect', async (t) => {
    const mutations = {
      'trailing slash': 'https://app.example.com/cb/',
      'other path': 'https://app.example.com/cb2',
      'other port': 'https://app.example.com:8443/cb',
      'explicit default port': 'https://app.example.com:443/cb',
      'query added': 'https://app.example.com/cb?next=1',
      'fragment added': 'https://app.example.com/cb#x',
      'host case': 'https://APP.example.com/cb',
      'path case': 'https://app.example.com/CB',
      'http instead of https': 'http://app.example.com/cb',
      'other host': 'https://evil.example.com/cb',
    };
    for (const [what, uri] of Object.entries(mutations)) {
      const page = await new Browser().get(authorizationUrl(s, c, VERIFIER, { redirect_uri: uri }));
      t.equal(page.status, 400, what);
      t.equal(page.location, undefined, `${what}: no redirect`);
      t.match(page.text, /Invalid redirect address/, what);
    }
    const missing = await new Browser().get(authorizationUrl(s, c, VERIFIER, { redirect_uri: undefined }));
    t.equal(missing.status, 400, 'missing redirect_uri');
    const registered = await new Browser().get(authorizationUrl(s, c, VERIFIER, { redirect_uri: https }));
    t.equal(registered.status, 200, 'the registered https URI is accepted');
  });

  t.test('an unknown or revoked client gets a 400 page', async (t) => {
    const unknown = await new Browser().get(authorizationUrl(s, { id: 'c_0000000000000000', secret: '' }, VERIFIER));
    t.equal(unknown.status, 400);
    t.equal(unknown.location, undefined);
    t.match(unknown.text, /Unknown application/);
    const gone = registerClient(s);
    s.server.oauth.clients.revoke(gone.id);
    const revoked = await new Browser().get(authorizationUrl(s, gone, VERIFIER));
    t.equal(revoked.status, 400);
    t.equal(revoked.location, undefined);
    const twice = new URL(authorizationUrl(s, c, VERIFIER));
    twice.searchParams.append('redirect_uri', 'https://evil.example.com/cb');
    t.equal((await new Browser().get(twice)).status, 400, 'a repeated redirect_uri is a page too');
  });

  t.test('other errors redirect to the client with error, state and iss', async (t) => {
    const otherGrants = registerClient(s, { grantTypes: ['client_credentials'], scopes: ['catalog:read', 'profile', 'email'] });
    const cases: [string, URL, string, RegExp][] = [
      ['response_type token', authorizationUrl(s, c, VERIFIER, { response_type: 'token' }), 'unsupported_response_type', /code/],
      ['no response_type', authorizationUrl(s, c, VERIFIER, { response_type: undefined }), 'invalid_request', /response_type/],
      ['scope without email', authorizationUrl(s, c, VERIFIER, { scope: 'openid profile' }), 'invalid_scope', /email/],
      ['no scope', authorizationUrl(s, c, VERIFIER, { scope: undefined }), 'invalid_scope', /profile and email/],
      ['an unknown scope', authorizationUrl(s, c, VERIFIER, { scope: 'profile email admin' }), 'invalid_scope', /admin/],
      ['an API scope the client lacks', authorizationUrl(s, c, VERIFIER, { scope: 'profile email works:write' }), 'invalid_scope', /works:write/],
      ['PKCE plain', authorizationUrl(s, c, VERIFIER, { code_challenge: VERIFIER, code_challenge_method: 'plain' }), 'invalid_request', /S256/],
      ['PKCE method missing', authorizationUrl(s, c, VERIFIER, { code_challenge_method: undefined }), 'invalid_request', /S256/],
      ['PKCE challenge missing', authorizationUrl(s, c, VERIFIER, { code_challenge: undefined }), 'invalid_request', /code_challenge is required/],
      ['PKCE challenge malformed', authorizationUrl(s, c, VERIFIER, { code_challenge: 'short' }), 'invalid_request', /43/],
      ['client not registered for the code flow', authorizationUrl(s, otherGrants, VERIFIER, { scope: 'profile email' }), 'unauthorized_client', /authorization code/],
    ];
    for (const [what, url, error, description] of cases) {
      const page = await new Browser().get(url);
      t.equal(page.status, 303, what);
      const to = page.location!;
      t.equal(`${to.origin}${to.pathname}`, REDIRECT_URI, `${what}: back to the client`);
      t.equal(to.searchParams.get('error'), error, what);
      t.match(to.searchParams.get('error_description'), description, what);
      t.equal(to.searchParams.get('state'), 'state-1', `${what}: state`);
      t.equal(to.searchParams.get('iss'), issuer, `${what}: iss`);
    }
    const noState = await new Browser().get(authorizationUrl(s, c, VERIFIER, { state: undefined }));
    t.equal(noState.location?.searchParams.get('error'), 'invalid_request', 'state is required');
    t.equal(noState.location?.searchParams.has('state'), false);
    const twice = authorizationUrl(s, c, VERIFIER);
    twice.searchParams.append('scope', 'profile email fingerprint');
    t.equal((await new Browser().get(twice)).location?.searchParams.get('error'), 'invalid_request', 'a repeated parameter');
  });

  t.test('login and consent pages: headers, cookie, session rotation, the request kept across login', async (t) => {
    const browser = new Browser();
    const loginPage = await browser.get(authorizationUrl(s, c, VERIFIER, { state: 'keep-me', nonce: 'n-1' }));
    t.equal(loginPage.status, 200);
    assertPageHeaders(t, loginPage, 'login page');
    t.match(loginPage.text, /Label Portal/);
    t.match(loginPage.text, /name="password"/);
    const [preLogin] = browser.setCookies;
    t.match(preLogin, /^refrain_session=[A-Za-z0-9_-]{43}; /, 'a session cookie before login');
    t.match(preLogin, /; HttpOnly/);
    t.match(preLogin, /; SameSite=Lax/);
    t.match(preLogin, /; Path=\//);
    t.notMatch(preLogin, /Secure/, 'no Secure with --oauth-insecure-cookies');
    const preLoginId = browser.cookies.get('refrain_session')!;

    const login = form(loginPage);
    const posted = await browser.post(login.action, { ...login.fields, email: user.email.toUpperCase(), password: 'correct horse battery staple' });
    t.equal(posted.status, 303, '303 after the login POST');
    t.equal(posted.location?.pathname, '/oauth/consent');
    const postLoginId = browser.cookies.get('refrain_session')!;
    t.not(postLoginId, preLoginId, 'a new session id at login');
    t.match(browser.setCookies[1], /HttpOnly; SameSite=Lax/);

    const consentPage = await browser.get(posted.location!);
    t.equal(consentPage.status, 200);
    assertPageHeaders(t, consentPage, 'consent page');
    t.match(consentPage.text, /Allow Label Portal\?/);
    t.match(consentPage.text, /\(catalog:read\)/, 'the requested scopes are listed');
    t.match(consentPage.text, /Ada Artist/);
    t.match(consentPage.headers.get('content-security-policy'), /form-action 'self' http:\/\/127\.0\.0\.1:9/, 'the redirect after the form is allowed');
    const consent = form(consentPage);
    t.not(consent.fields.csrf, login.fields.csrf, 'a new CSRF token with the new session');

    // The pre-login session is gone: its cookie and token no longer pass.
    const stale = new Browser();
    stale.cookies.set('refrain_session', preLoginId);
    t.equal((await stale.post(consent.action, { ...login.fields, decision: 'allow' })).status, 403, 'the pre-login session died at login');

    const answered = await browser.post(consent.action, { ...consent.fields, decision: 'allow' });
    t.equal(answered.status, 303);
    const back = answered.location!;
    t.equal(`${back.origin}${back.pathname}`, REDIRECT_URI);
    t.equal(back.searchParams.get('state'), 'keep-me', 'the state of the request that started before login');
    t.equal(back.searchParams.get('iss'), issuer);
    t.match(back.searchParams.get('code'), /^[A-Za-z0-9_-]{43}$/);
    t.equal((await browser.post(consent.action, { ...consent.fields, decision: 'allow' })).status, 400, 'a request is answered once');

    // Logged in: the next authorization goes straight to the consent page.
    const again = await browser.get(authorizationUrl(s, c, VERIFIER, { state: 'second' }));
    t.match(again.text, /name="decision"/, 'consent without a new login');
  });

  t.test('Deny redirects with access_denied', async (t) => {
    const back = await signInAndConsent(new Browser(), authorizationUrl(s, c, VERIFIER, { state: 'no-thanks' }), { email: user.email }, 'deny');
    t.equal(back.searchParams.get('error'), 'access_denied');
    t.equal(back.searchParams.get('state'), 'no-thanks');
    t.equal(back.searchParams.get('iss'), issuer);
    t.equal(back.searchParams.has('code'), false);
  });

  t.test('CSRF: a missing or wrong token, or no session, is a 403 page', async (t) => {
    const browser = new Browser();
    const page = await browser.get(authorizationUrl(s, c, VERIFIER));
    const login = form(page);
    const credentials = { email: user.email, password: 'correct horse battery staple' };
    const { csrf: _omit, ...withoutToken } = login.fields;
    const missing = await browser.post(login.action, { ...withoutToken, ...credentials });
    t.equal(missing.status, 403, 'login without the token');
    assertPageHeaders(t, missing, '403 page');
    t.equal((await browser.post(login.action, { ...login.fields, csrf: 'x'.repeat(43), ...credentials })).status, 403, 'login with a wrong token');
    t.equal((await new Browser().post(login.action, { ...login.fields, ...credentials })).status, 403, 'login without the session cookie');

    const posted = await browser.post(login.action, { ...login.fields, ...credentials });
    t.equal(posted.status, 303, 'the right token passes');
    const consentPage = await browser.get(posted.location!);
    const consent = form(consentPage);
    t.equal((await browser.post(consent.action, { request: consent.fields.request, decision: 'allow' })).status, 403, 'consent without the token');
    t.equal((await browser.post(consent.action, { ...consent.fields, csrf: login.fields.csrf, decision: 'allow' })).status, 403, 'consent with the pre-login token');
    const other = new Browser();
    await other.get(authorizationUrl(s, c, VERIFIER));
    t.equal((await other.post(consent.action, { ...consent.fields, decision: 'allow' })).status, 403, "consent with another session's cookie");
    t.equal((await browser.post(consent.action, { ...consent.fields, decision: 'allow' })).status, 303, 'still answerable with the right token');
  });

  t.test('a wrong password goes back to the login page; error pages carry the headers', async (t) => {
    const browser = new Browser();
    const page = await browser.get(authorizationUrl(s, c, VERIFIER));
    const login = form(page);
    const failed = await browser.post(login.action, { ...login.fields, email: user.email, password: 'wrong password!' });
    t.equal(failed.status, 303);
    t.equal(failed.location?.pathname, '/oauth/login');
    const again = await browser.get(failed.location!);
    t.equal(again.status, 200);
    t.match(again.text, /e-mail address or the password is wrong/);
    assertPageHeaders(t, again, 'login page after a failure');
    const expired = await new Browser().get(new URL('/oauth/consent?request=nope', s.url));
    t.equal(expired.status, 400);
    assertPageHeaders(t, expired, 'expired page');
    const bad = await new Browser().get(authorizationUrl(s, c, VERIFIER, { redirect_uri: 'https://evil.example.com/' }));
    assertPageHeaders(t, bad, 'error page');
  });

  t.test('names and scopes are escaped in the pages', async (t) => {
    const evil = registerClient(s, { name: '<script>alert("x")</script> & Co' });
    const browser = new Browser();
    const page = await browser.get(authorizationUrl(s, evil, VERIFIER));
    t.notMatch(page.text, /<script>/);
    t.match(page.text, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; Co/);
  });
});

t.test('Secure cookies by default, and login throttling', async (t) => {
  let offset = 0;
  const s = await startTestServer(t, { server: { clock: () => Date.now() + offset } });
  const c = registerClient(s);
  const user = await createUser(s);
  const other = await createUser(s, 'Bo Writer');

  t.test('the session cookie is Secure and __Host- prefixed', async (t) => {
    const browser = new Browser();
    await browser.get(authorizationUrl(s, c, VERIFIER));
    t.match(browser.setCookies[0], /^__Host-refrain_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
  });

  const attempt = async (email: string, password: string): Promise<Page> => {
    const browser = new Browser();
    const page = await browser.get(authorizationUrl(s, c, VERIFIER));
    const login = form(page);
    return browser.post(login.action, { ...login.fields, email, password });
  };

  t.test('5 failures for one e-mail within 15 minutes answer 429 with Retry-After', async (t) => {
    for (let i = 0; i < 5; i++) t.equal((await attempt(user.email, `wrong password ${i}`)).status, 303, `failure ${i + 1}`);
    const limited = await attempt(user.email, 'correct horse battery staple');
    t.equal(limited.status, 429, 'even the right password is refused now');
    assertPageHeaders(t, limited, '429 page');
    const retry = Number(limited.headers.get('retry-after'));
    t.ok(retry > 14 * 60 && retry <= 15 * 60, `Retry-After ${retry}`);
    t.match(limited.text, /Too many/);
    t.equal((await attempt(user.email.toUpperCase(), 'correct horse battery staple')).status, 429, 'the e-mail is compared normalised');
  });

  t.test('the address is throttled too, whatever the e-mail', async (t) => {
    // The previous test's five failures came from this address as well.
    const limited = await attempt(other.email, 'correct horse battery staple');
    t.equal(limited.status, 429);
    t.equal(limited.headers.has('retry-after'), true);
  });

  t.test('after 15 minutes logins pass again', async (t) => {
    offset += 15 * 60_000 + 1000;
    const ok = await attempt(user.email, 'correct horse battery staple');
    t.equal(ok.status, 303);
    t.equal(ok.location?.pathname, '/oauth/consent');
  });
});
