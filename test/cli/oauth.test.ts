/**
 * The OAuth administration commands as an operator runs them (bin/refrain.js over the build that
 * `npm test` makes first): clients, users, signing keys.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/tmp.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/refrain.js');
const run = (args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}) => {
  const env = { ...process.env, REFRAIN_USER_PASSWORD: '', ...options.env };
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env, input: options.input ?? '' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

t.test('help for every OAuth command', async (t) => {
  const top = run(['--help']);
  for (const c of ['clients create', 'clients list', 'clients revoke', 'users create', 'users list', 'users disable', 'oauth-keys rotate']) {
    t.match(top.out, c);
    const r = run([...c.split(' '), '--help']);
    t.equal(r.code, 0, c);
    t.match(r.out, new RegExp(`^refrain ${c}`));
  }
  t.match(run(['clients', 'create', '--help']).out, /--redirect-uri <value> +redirect URI of the OAuth client/);
  t.equal(run(['clients']).code, 2, 'a group name alone is no command');
});

t.test('clients create|list|revoke with --json', async (t) => {
  const data = tempDir(t);
  const created = run([
    'clients', 'create', '--data', data, '--name', 'Partner X', '--json',
    '--redirect-uri', 'https://partner.example/cb', '--redirect-uri=http://localhost:3000/cb,http://127.0.0.1:3000/cb',
    '--grant-types', 'authorization_code,refresh_token,client_credentials',
    '--scopes', 'openid profile email catalog:read fingerprint', '--plan', 'enterprise', '--rate', '600', '--country', 'de',
  ]);
  t.equal(created.code, 0, created.err);
  t.equal(created.out.trim().split('\n').length, 1, 'exactly one JSON object');
  const client = JSON.parse(created.out);
  t.same(Object.keys(client).slice(0, 2), ['client_id', 'client_secret'], 'the id and the secret come first');
  t.match(client, {
    client_id: /^c_[0-9a-f]{16}$/,
    client_secret: /^[A-Za-z0-9_-]{43}$/,
    name: 'Partner X',
    redirect_uris: ['https://partner.example/cb', 'http://localhost:3000/cb', 'http://127.0.0.1:3000/cb'],
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    scopes: ['openid', 'profile', 'email', 'catalog:read', 'fingerprint'],
    plan: 'enterprise',
    quota: 0,
    rate: 600,
    country: 'DE',
    revoked: null,
  });

  const text = run(['clients', 'create', '--data', data, '--name', 'Reader', '--grant-types', 'client_credentials', '--scopes', 'catalog:read']);
  t.equal(text.code, 0, text.err);
  t.match(text.out, /^client_id +c_[0-9a-f]{16}\nclient_secret +[A-Za-z0-9_-]{43}\n/);
  t.match(text.out, /\(the secret is shown only now: store it\)\n$/);

  const list = run(['clients', 'list', '--data', data, '--json']);
  t.equal(list.code, 0, list.err);
  const { clients } = JSON.parse(list.out);
  t.same(clients.map((c: { name: string }) => c.name), ['Partner X', 'Reader']);
  t.notOk(list.out.includes(client.client_secret) || list.out.includes('secret'), 'never a secret or its hash');

  const revoked = run(['clients', 'revoke', client.client_id, '--data', data, '--json']);
  t.equal(revoked.code, 0, revoked.err);
  t.match(JSON.parse(revoked.out), { client_id: client.client_id, revoked: /^\d{4}-\d\d-\d\dT/ });
  t.match(run(['clients', 'list', '--data', data]).out, /REVOKED/);

  const missing = run(['clients', 'revoke', 'c_nope', '--data', data]);
  t.equal(missing.code, 1);
  t.equal(missing.err, 'refrain clients revoke: no client with id c_nope\n');
  t.equal(run(['clients', 'revoke', '--data', data]).code, 2, 'no client_id');
});

t.test('clients create: validation errors exit 2 and name the problem', async (t) => {
  const data = tempDir(t);
  const create = (...args: string[]) => run(['clients', 'create', '--data', data, ...args]);
  const cases: [string[], string][] = [
    [['--redirect-uri', 'https://a.example/cb'], '--name: required'],
    [['--name', 'X', '--redirect-uri', 'http://a.example/cb'], 'redirect URI http://a.example/cb uses http: only localhost, 127.0.0.1 and [::1] may (use https)'],
    [['--name', 'X', '--redirect-uri', 'https://a.example/cb#top'], 'redirect URI https://a.example/cb#top has a fragment (RFC 6749 §3.1.2)'],
    [['--name', 'X', '--redirect-uri', 'cb'], 'redirect URI cb is not an absolute URL'],
    [['--name', 'X'], 'the authorization code flow needs at least one redirect URI'],
    [['--name', 'X', '--grant-types', 'client_credentials,refresh_token'], 'the refresh_token grant needs authorization_code (refresh tokens come only from the code flow)'],
    [['--name', 'X', '--grant-types', 'password'], '--grant-types: Invalid option: expected one of "authorization_code"|"refresh_token"|"client_credentials"'],
    [['--name', 'X', '--grant-types', 'client_credentials', '--scopes', 'catalog:read admin'], '--scopes: Invalid option: expected one of '],
    [['--name', 'X', '--grant-types', 'client_credentials', '--plan', 'gold'], '--plan: '],
  ];
  for (const [args, message] of cases) {
    const r = create(...args);
    t.equal(r.code, 2, args.join(' '));
    t.ok(r.err.startsWith(`refrain clients create: ${message}`), `${args.join(' ')}: ${r.err.split('\n')[0]}`);
  }
  t.same(JSON.parse(run(['clients', 'list', '--data', data, '--json']).out), { clients: [] }, 'nothing registered');
});

t.test('users create|list|disable with --json; the password never on the command line', async (t) => {
  const data = tempDir(t);
  const created = run(['users', 'create', '--data', data, '--email', 'Artist@Example.com', '--name', 'An Artist', '--password-stdin', '--json'], {
    input: 'correct horse battery\n',
  });
  t.equal(created.code, 0, created.err);
  const user = JSON.parse(created.out);
  t.same(Object.keys(user).slice(0, 2), ['user_id', 'email']);
  t.match(user, { user_id: /^u_[0-9a-f]{16}$/, email: 'artist@example.com', name: 'An Artist', disabled: null });
  t.same(Object.keys(user).sort(), ['created', 'disabled', 'email', 'name', 'user_id'], 'no password hash');

  const fromEnv = run(['users', 'create', '--data', data, '--email', 'b@example.com', '--name', 'B', '--json'], {
    env: { REFRAIN_USER_PASSWORD: 'another long password' },
  });
  t.equal(fromEnv.code, 0, fromEnv.err);
  t.match(run(['users', 'create', '--data', data, '--email', 'c@example.com', '--name', 'C']).err,
    /^refrain users create: give the password on standard input with --password-stdin, or in REFRAIN_USER_PASSWORD\n/);
  t.equal(run(['users', 'create', '--data', data, '--email', 'c@example.com', '--name', 'C', '--password', 'x']).code, 2, 'no --password flag');
  const short = run(['users', 'create', '--data', data, '--email', 'c@example.com', '--name', 'C', '--password-stdin'], { input: 'short\n' });
  t.equal(short.code, 2);
  t.match(short.err, /^refrain users create: the password must have at least 10 characters\n/);
  const badEmail = run(['users', 'create', '--data', data, '--email', 'nope', '--name', 'C', '--password-stdin'], { input: 'long enough password' });
  t.equal(badEmail.code, 2);
  t.match(badEmail.err, /^refrain users create: nope is not an e-mail address\n/);
  const dup = run(['users', 'create', '--data', data, '--email', 'ARTIST@example.com', '--name', 'D', '--password-stdin'], { input: 'long enough password' });
  t.equal(dup.code, 1);
  t.equal(dup.err, 'refrain users create: a user with e-mail artist@example.com already exists\n');

  const list = JSON.parse(run(['users', 'list', '--data', data, '--json']).out);
  t.same(list.users.map((u: { email: string }) => u.email), ['artist@example.com', 'b@example.com']);
  t.notOk(JSON.stringify(list).includes('scrypt'), 'never a password hash');

  const byEmail = run(['users', 'disable', 'artist@example.com', '--data', data, '--json']);
  t.equal(byEmail.code, 0, byEmail.err);
  t.match(JSON.parse(byEmail.out), { user_id: user.user_id, disabled: /^\d{4}-/ });
  const byId = run(['users', 'disable', JSON.parse(fromEnv.out).user_id, '--data', data]);
  t.match(byId.out, /^disabled u_[0-9a-f]{16} {2}b@example\.com {2}"B" .*DISABLED/);
  const missing = run(['users', 'disable', 'u_nope', '--data', data]);
  t.equal(missing.code, 1);
  t.equal(missing.err, 'refrain users disable: no user with id or e-mail u_nope\n');
});

t.test('oauth-keys rotate [--retire]', async (t) => {
  const data = tempDir(t);
  const first = JSON.parse(run(['oauth-keys', 'rotate', '--data', data, '--json']).out);
  t.equal(first.kids.length, 2, 'the key made on first use, and the new one');
  t.equal(first.kids[1], first.kid);
  t.equal(statSync(path.join(data, 'oauth', 'signing-keys.json')).mode & 0o777, 0o600);
  const second = JSON.parse(run(['oauth-keys', 'rotate', '--data', data, '--json']).out);
  t.same(second.kids, [...first.kids, second.kid]);
  const retired = run(['oauth-keys', 'rotate', '--data', data, '--retire']);
  t.equal(retired.code, 0, retired.err);
  t.match(retired.out, new RegExp(`^new signing key (\\S+); the JWKS now serves ${second.kid}, \\1\\n$`));
});
