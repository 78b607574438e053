import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/store.js';
import { ClientStore, clientSpecProblem, redirectUriProblem, type NewClient } from '../../src/oauth/clients.js';
import { RefrainError } from '../../src/errors.js';
import { tempDir } from '../helpers/tmp.js';

const SPEC: NewClient = {
  name: 'Partner X',
  redirectUris: ['https://partner.example/cb', 'http://localhost:3000/cb'],
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'profile', 'email', 'catalog:read'],
  plan: 'basic',
};

function openStore(t: Test): ClientStore {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  return new ClientStore(catalog.root);
}

t.test('create shows the secret once; list and get never show it', async (t) => {
  const store = openStore(t);
  const { clientSecret, record } = store.create({ ...SPEC, country: 'de', rate: 60 });
  t.match(clientSecret, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  t.match(record, {
    client_id: /^c_[0-9a-f]{16}$/,
    name: 'Partner X',
    redirect_uris: SPEC.redirectUris,
    grant_types: SPEC.grantTypes,
    scopes: SPEC.scopes,
    plan: 'basic',
    quota: 100_000,
    rate: 60,
    country: 'DE',
    created: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    revoked: null,
  });
  t.same(store.get(record.client_id), record);
  t.same(store.list(), [record]);
  t.notOk(JSON.stringify(store.list()).includes('secret'), 'no secret or its hash in the list');
  t.equal(store.get('c_unknown'), undefined);
});

t.test('authenticate: right secret only, live clients only', async (t) => {
  const store = openStore(t);
  const { clientSecret, record } = store.create(SPEC);
  t.same(store.authenticate(record.client_id, clientSecret), record);
  t.equal(store.authenticate(record.client_id, `${clientSecret}x`), undefined);
  t.equal(store.authenticate(record.client_id, ''), undefined);
  t.equal(store.authenticate('c_unknown', clientSecret), undefined);
  const v = store.version();
  const revoked = store.revoke(record.client_id);
  t.match(revoked.revoked, /^\d{4}-/);
  t.equal(store.version(), v + 1, 'revoking bumps the version');
  t.equal(store.authenticate(record.client_id, clientSecret), undefined, 'revoked');
  t.equal(store.get(record.client_id)?.revoked, revoked.revoked, 'get still returns a revoked client');
  t.equal(store.revoke(record.client_id).revoked, revoked.revoked, 'revoking again keeps the first date');
});

t.test('revoke of an unknown client is a 404', async (t) => {
  const store = openStore(t);
  t.throws(() => store.revoke('c_nope'), new RefrainError('not_found', 'no client with id c_nope'));
});

t.test('registration rules', async (t) => {
  const store = openStore(t);
  const problem = (over: Partial<NewClient>) => clientSpecProblem({ ...SPEC, ...over });
  t.equal(problem({}), undefined);
  t.equal(problem({ name: ' ' }), 'the client name must have 1 to 200 characters');
  t.equal(problem({ grantTypes: ['password' as never] }), 'unknown grant type password (known: authorization_code, refresh_token, client_credentials)');
  t.equal(problem({ grantTypes: [] }), 'name at least one grant type');
  t.equal(
    problem({ grantTypes: ['client_credentials', 'refresh_token'] }),
    'the refresh_token grant needs authorization_code (refresh tokens come only from the code flow)',
  );
  t.equal(problem({ scopes: ['catalog:write' as never] }), 'unknown scope catalog:write');
  t.equal(problem({ scopes: [] }), 'name at least one scope');
  t.equal(problem({ redirectUris: [] }), 'the authorization code flow needs at least one redirect URI');
  t.equal(problem({ redirectUris: [], grantTypes: ['client_credentials'] }), undefined, 'client credentials need no redirect URI');
  t.equal(problem({ redirectUris: ['https://a.example/cb#x'] }), 'redirect URI https://a.example/cb#x has a fragment (RFC 6749 §3.1.2)');
  t.throws(() => store.create({ ...SPEC, redirectUris: ['/cb'] }), new RefrainError('bad_request', 'redirect URI /cb is not an absolute URL'));
  t.same(store.list(), [], 'nothing stored on a refused registration');
});

t.test('redirect URIs: https, or http on the loopback host; no fragment, no credentials', async (t) => {
  for (const ok of ['https://partner.example/cb?x=1', 'http://localhost:8080/cb', 'http://127.0.0.1/cb', 'http://[::1]:9/cb']) {
    t.equal(redirectUriProblem(ok), undefined, ok);
  }
  t.equal(redirectUriProblem('http://partner.example/cb'), 'redirect URI http://partner.example/cb uses http: only localhost, 127.0.0.1 and [::1] may (use https)');
  t.equal(redirectUriProblem('com.example.app:/cb'), 'redirect URI com.example.app:/cb must use https (or http on localhost)');
  t.equal(redirectUriProblem('https://u:p@partner.example/cb'), 'redirect URI https://u:p@partner.example/cb carries credentials');
  t.equal(redirectUriProblem('https://partner.example/cb#'), 'redirect URI https://partner.example/cb# has a fragment (RFC 6749 §3.1.2)');
  t.equal(redirectUriProblem('partner.example/cb'), 'redirect URI partner.example/cb is not an absolute URL');
});
