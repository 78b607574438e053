/**
 * Sign-in state before login stays out of LMDB (issue 11, item 2): unauthenticated authorization
 * requests write nothing, the sign-in token is signed and expires, sessions are capped per client
 * address, and expired sessions are purged in bounded passes.
 */
import t from 'tap';
import { statSync } from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationUrl, Browser, createUser, form, PASSWORD, registerClient, type TestClient } from '../helpers/oauth.js';
import { Catalog } from '../../src/catalog/store.js';
import { SESSION_TTL_MS, SessionStore, type PendingAuthorization, type Session } from '../../src/oauth/sessions.js';
import { SignIn } from '../../src/oauth/signin.js';
import { tempDir } from '../helpers/tmp.js';

const VERIFIER = 'v'.repeat(43);

/** Entries of the sessions database, read from LMDB directly (whatever the store's API). */
const storedSessions = (s: TestServer): number => s.server.catalog.root.openDB({ name: 'oauth-sessions' }).getCount();

/** Log in through the pages; returns the browser (holding the session cookie) and the consent page. */
async function logIn(s: TestServer, c: TestClient, email: string, browser = new Browser()) {
  const page = await browser.get(authorizationUrl(s, c, VERIFIER));
  const login = form(page);
  const posted = await browser.post(login.action, { ...login.fields, email, password: PASSWORD });
  if (posted.status !== 303 || !posted.location) throw new Error(`login answered ${posted.status}`);
  const consent = await browser.get(posted.location);
  return { browser, consent };
}

t.test('unauthenticated authorization requests write nothing', async (t) => {
  let offset = 0;
  const s = await startTestServer(t, { flags: ['--oauth-insecure-cookies', '--oauth-sessions-per-address', '2', '--oauth-signin-ttl', '10m'], server: { clock: () => Date.now() + offset } });
  const c = registerClient(s);
  const user = await createUser(s);
  const dataFile = path.join(s.data, 'catalog', 'data.mdb');

  t.test('many authorization requests: no session stored, the data file does not grow', async (t) => {
    const before = statSync(dataFile).size;
    const returning = new Browser();
    for (let i = 0; i < 300; i++) {
      // New browsers (no cookie) and one returning browser (its cookie is reused, never stored).
      const browser = i % 2 === 0 ? new Browser() : returning;
      const page = await browser.get(authorizationUrl(s, c, VERIFIER, { state: `s-${i}`, nonce: 'n'.repeat(1000) }));
      if (page.status !== 200) throw new Error(`authorize answered ${page.status}`);
    }
    await s.server.catalog.root.committed;
    t.equal(storedSessions(s), 0, 'no session before login');
    t.equal(statSync(dataFile).size, before, 'the data file did not grow');
    t.equal(new Set(returning.setCookies.map((c) => c.split(';')[0])).size, 1, 'a returning browser keeps its cookie value');
  });

  t.test('a login stores one session; the request comes through the signed token', async (t) => {
    const { consent } = await logIn(s, c, user.email);
    t.match(consent.text, /name="decision"/);
    t.equal(storedSessions(s), 1);
  });

  t.test('a tampered, foreign or expired sign-in token is refused', async (t) => {
    const browser = new Browser();
    const page = await browser.get(authorizationUrl(s, c, VERIFIER));
    const login = form(page);
    const [payload, mac] = login.fields.request.split('.');
    const flipped = `${payload.slice(0, -2)}${payload.at(-2) === 'A' ? 'B' : 'A'}${payload.at(-1)}.${mac}`;
    const foreign = new SignIn(Buffer.alloc(32, 7), 3600_000).seal({ clientId: c.id, redirectUri: 'https://evil.example/cb', scope: ['profile', 'email'], state: 'x', codeChallenge: 'c'.repeat(43), created: Date.now() });
    for (const [what, request] of [['tampered', flipped], ['signed with another key', foreign], ['garbage', 'abc'], ['missing', undefined]] as const) {
      const fields: Record<string, string> = { ...login.fields, email: user.email, password: PASSWORD };
      if (request === undefined) delete fields.request;
      else fields.request = request;
      const answer = await browser.post(login.action, fields);
      t.equal(answer.status, 400, `${what}: refused`);
      t.match(answer.text, /expired/, what);
    }
    t.equal((await browser.get(new URL(`login?request=${encodeURIComponent(flipped)}`, login.action))).status, 400, 'the login page of a tampered token');
    offset += 10 * 60_000 + 1000;
    try {
      const late = await browser.post(login.action, { ...login.fields, email: user.email, password: PASSWORD });
      t.equal(late.status, 400, 'expired after --oauth-signin-ttl');
    } finally {
      offset = 0;
    }
    t.equal(storedSessions(s), 1, 'refused logins store nothing');
  });

  t.test('at most --oauth-sessions-per-address sessions per address: a login beyond ends the oldest', async (t) => {
    const first = await logIn(s, c, user.email);
    const second = await logIn(s, c, user.email);
    const third = await logIn(s, c, user.email);
    t.equal(storedSessions(s), 2, 'two sessions for 127.0.0.1');
    const allow = (b: { browser: Browser; consent: Awaited<ReturnType<typeof logIn>>['consent'] }) => {
      const f = form(b.consent);
      return b.browser.post(f.action, { ...f.fields, decision: 'allow' });
    };
    t.equal((await allow(first)).status, 403, 'the oldest session ended');
    t.equal((await allow(second)).status, 303, 'the second still works');
    t.equal((await allow(third)).status, 303, 'the newest works');
  });
});

t.test('the purge removes expired and pre-login sessions, a bounded batch per pass', async (t) => {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  const clock = { now: Date.UTC(2026, 0, 1) };
  const store = new SessionStore(catalog.root, () => clock.now, { perAddress: 100, requestTtlMs: 3600_000, purgeBatch: 4 });
  t.teardown(() => store.close());
  const request = (): PendingAuthorization => ({ clientId: 'c_1', redirectUri: 'https://a.example/cb', scope: ['profile', 'email'], state: 's', codeChallenge: 'c'.repeat(43), created: clock.now });
  const raw = catalog.root.openDB<Session, string>({ name: 'oauth-sessions' });
  // What older versions wrote before login: no user. Ten of them, and six logged-in sessions.
  for (let i = 0; i < 10; i++) await raw.put(`legacy-${i}`, { csrf: 'x', expires: clock.now + 3600_000, requests: { r: request() } });
  const early: string[] = [];
  for (let i = 0; i < 3; i++) early.push((await store.login({ userId: 'u_1', ip: `10.0.0.${i}`, request: request() })).id);
  clock.now += SESSION_TTL_MS - 60_000;
  const late: string[] = [];
  for (let i = 0; i < 3; i++) late.push((await store.login({ userId: 'u_1', ip: `10.0.0.${i}`, request: request() })).id);
  clock.now += 120_000; // the first three expired
  t.equal(store.count(), 16);

  let passes = 0;
  let removed = 0;
  for (;;) {
    const pass = store.purgePass();
    passes++;
    t.ok(pass.removed <= 4, `pass ${passes} removed ${pass.removed}: at most the batch`);
    removed += pass.removed;
    await catalog.root.committed;
    if (pass.wrapped) break;
  }
  t.equal(passes, 4, '16 sessions in batches of 4');
  t.equal(removed, 13, 'ten pre-login and three expired sessions removed');
  t.equal(store.count(), 3);
  for (const id of early) t.equal(store.get(id), undefined, 'an expired session is gone');
  for (const id of late) t.ok(store.get(id), 'a live session stays');
  const addresses = catalog.root.openDB({ name: 'oauth-session-addresses' });
  t.equal(addresses.getCount(), 3, 'their address index entries went with them');

  // At start, a whole cycle runs at once, pass after pass.
  clock.now += SESSION_TTL_MS;
  store.startPurging((err) => t.error(err));
  await store.close(); // waits for the running cycle
  t.equal(store.count(), 0, 'the purge at start removed the rest once expired');
  t.equal(addresses.getCount(), 0);
});
