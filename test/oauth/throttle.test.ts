/**
 * Login throttling under concurrency (issue 11, item 3): attempts are counted before the password
 * is checked, so parallel guesses cannot slip past the limit; a success does not count.
 */
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationUrl, Browser, createUser, form, PASSWORD, registerClient, type TestClient } from '../helpers/oauth.js';

const VERIFIER = 'v'.repeat(43);

/** Count the passwords the server checks (every call runs scrypt). */
function countChecks(s: TestServer): { readonly count: number } {
  const users = s.server.oauth.users;
  const verify = users.verifyPassword.bind(users);
  const counter = { count: 0 };
  users.verifyPassword = (email: string, password: string) => {
    counter.count++;
    return verify(email, password);
  };
  return counter;
}

async function loginForm(s: TestServer, c: TestClient) {
  const browser = new Browser();
  const page = await browser.get(authorizationUrl(s, c, VERIFIER));
  return { browser, login: form(page) };
}

t.test('150 parallel wrong logins on one session: at most 5 checked, then 429 even for the right password', async (t) => {
  const s = await startTestServer(t, { flags: ['--oauth-insecure-cookies'] });
  const c = registerClient(s);
  const user = await createUser(s);
  const checks = countChecks(s);
  const { browser, login } = await loginForm(s, c);
  const answers = await Promise.all(
    Array.from({ length: 150 }, (_, i) => browser.post(login.action, { ...login.fields, email: user.email, password: `wrong password ${i}` })),
  );
  const statuses: Record<number, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  t.ok(checks.count <= 5, `${checks.count} passwords checked (at most 5)`);
  t.same(statuses, { 303: checks.count, 429: 150 - checks.count }, 'the rest answered 429 at once');
  const right = await browser.post(login.action, { ...login.fields, email: user.email, password: PASSWORD });
  t.equal(right.status, 429, 'the right password is refused too');
  t.ok(Number(right.headers.get('retry-after')) > 0, 'with Retry-After');
  t.ok(checks.count <= 5, 'and not checked');
});

t.test('per address, whatever the e-mail; a success does not count; --oauth-login-attempts and --oauth-login-window', async (t) => {
  let offset = 0;
  const s = await startTestServer(t, { flags: ['--oauth-insecure-cookies', '--oauth-login-attempts', '3', '--oauth-login-window', '2m'], server: { clock: () => Date.now() + offset } });
  const c = registerClient(s);
  const user = await createUser(s);
  const checks = countChecks(s);
  const post = async (email: string, password: string) => {
    const { browser, login } = await loginForm(s, c);
    return browser.post(login.action, { ...login.fields, email, password });
  };
  // 30 parallel guesses, each for another e-mail, from one address.
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post(`nobody${i}@example.com`, 'wrong password!')));
  t.equal(checks.count, 3, 'three checked for the address');
  t.equal(answers.filter((a) => a.status === 429).length, 27);

  offset += 2 * 60_000 + 1000; // the window passes
  t.equal((await post(user.email, 'wrong password!')).status, 303, 'a failure (1)');
  t.equal((await post(user.email, PASSWORD)).status, 303, 'a success, not counted');
  t.equal((await post(user.email, PASSWORD)).status, 303, 'another success');
  t.equal((await post('other@example.com', 'wrong password!')).status, 303, 'a failure (2)');
  t.equal((await post('other@example.com', 'wrong password!')).status, 303, 'a failure (3)');
  t.equal((await post(user.email, PASSWORD)).status, 429, 'the address is at its limit');
});
