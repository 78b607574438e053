/**
 * OAuth state writes never block the event loop waiting for LMDB's write lock (issue 11, item 5):
 * with another process holding the lock (as an import does), code redemption, refresh, consent
 * (a new code) and login (a new session) wait for it off the event loop — /healthz keeps answering
 * — and all complete once the lock is released.
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startTestServer } from '../helpers/server.js';
import { authorizationUrl, Browser, createUser, form, obtainCode, PASSWORD, postForm, REDIRECT_URI, registerClient } from '../helpers/oauth.js';
import { tempDir } from '../helpers/tmp.js';

/** The longest the holder keeps the lock if never told to release it (the old code blocked until then). */
const MAX_HOLD_MS = 40_000;
/** Event-loop stalls allowed while the lock is held: generous, a loaded machine must not fail the test. */
const MAX_GAP_MS = 10_000;

/** A child process that opens the environment at `dir` and holds its write lock until `release()`. */
async function holdWriteLock(t: Test, dir: string): Promise<{ release: () => Promise<void> }> {
  const lmdb = createRequire(import.meta.url).resolve('lmdb');
  const releaseFile = path.join(tempDir(t), 'release');
  const script = `
    const { open } = require(${JSON.stringify(lmdb)});
    const fs = require('node:fs');
    const root = open({ path: ${JSON.stringify(dir)}, maxDbs: 64 });
    const nap = new Int32Array(new SharedArrayBuffer(4));
    const deadline = Date.now() + ${MAX_HOLD_MS};
    root.transactionSync(() => {
      fs.writeSync(1, 'locked\\n');
      while (!fs.existsSync(${JSON.stringify(releaseFile)}) && Date.now() < deadline) Atomics.wait(nap, 0, 0, 20);
    });
    fs.writeSync(1, 'released\\n');
    root.close();
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => line === 'locked' && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code} before locking`)));
  });
  return {
    release: async () => {
      if (!existsSync(releaseFile)) writeFileSync(releaseFile, '');
      await exited;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('OAuth writes wait for the LMDB write lock off the event loop', async (t) => {
  const s = await startTestServer(t, { flags: ['--oauth-insecure-cookies'] });
  const c = registerClient(s);
  const user = await createUser(s);

  // Ready before the lock: a code to redeem, a refresh token, a consent page and a login form.
  const first = await obtainCode(s, c, user.email);
  const issued = await postForm(s, '/oauth/token', { grant_type: 'authorization_code', code: first.code, redirect_uri: REDIRECT_URI, code_verifier: first.verifier }, { basic: c });
  t.equal(issued.status, 200);
  const second = await obtainCode(s, c, user.email);
  const consenting = new Browser();
  const loginPage = await consenting.get(authorizationUrl(s, c, 'v'.repeat(43)));
  const loggedIn = await consenting.post(form(loginPage).action, { ...form(loginPage).fields, email: user.email, password: PASSWORD });
  const consent = form(await consenting.get(loggedIn.location!));
  const signing = new Browser();
  const login = form(await signing.get(authorizationUrl(s, c, 'v'.repeat(43))));

  const holder = await holdWriteLock(t, path.join(s.data, 'catalog'));
  let maxGap = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 20);
  t.teardown(() => clearInterval(ticker));

  const settled: string[] = [];
  const track = <T>(name: string, p: Promise<T>): Promise<T> => p.finally(() => settled.push(name));
  const writes = Promise.all([
    track('code redemption', postForm(s, '/oauth/token', { grant_type: 'authorization_code', code: second.code, redirect_uri: REDIRECT_URI, code_verifier: second.verifier }, { basic: c })),
    track('refresh', postForm(s, '/oauth/token', { grant_type: 'refresh_token', refresh_token: String(issued.json.refresh_token) }, { basic: c })),
    track('consent', consenting.post(consent.action, { ...consent.fields, decision: 'allow' })),
    track('login', signing.post(login.action, { ...login.fields, email: user.email, password: PASSWORD })),
  ]);

  // While the lock is held, for two seconds: /healthz answers every time, the timers keep firing.
  const started = performance.now();
  let answered = 0;
  while (performance.now() - started < 2000) {
    const health = await fetch(`${s.url}/healthz`);
    if (health.status === 200) answered++;
    await sleep(100);
  }
  t.ok(answered >= 5, `/healthz answered ${answered} times while the lock was held`);
  t.ok(maxGap < MAX_GAP_MS, `the event loop never stalled: longest gap ${Math.round(maxGap)} ms`);
  t.same(settled, [], 'the OAuth writes were still waiting for the lock');

  await holder.release();
  const [redeemed, refreshed, allowed, signedIn] = await writes;
  t.equal(redeemed.status, 200, 'the code was redeemed once the lock was free');
  t.equal(refreshed.status, 200, 'the refresh token rotated');
  t.match(allowed.location?.searchParams.get('code'), /^[A-Za-z0-9_-]{43}$/, 'consent issued a code');
  t.equal(signedIn.location?.pathname, '/oauth/consent', 'the login made a session');
  t.ok(maxGap < MAX_GAP_MS, `no stall after the release either: longest gap ${Math.round(maxGap)} ms`);
});
