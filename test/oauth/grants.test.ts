import t, { type Test } from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { Catalog } from '../../src/catalog/store.js';
import { OAuthError } from '../../src/oauth/errors.js';
import { CODE_TTL_MS, GrantStore, type CodeRequest } from '../../src/oauth/grants.js';
import { tempDir } from '../helpers/tmp.js';

const CLIENT = 'c_0123456789abcdef';
const REDIRECT = 'https://partner.example/cb';
const T0 = Date.UTC(2026, 0, 1);

const verifierPair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function setup(t: Test) {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  const clock = { now: T0 };
  const store = new GrantStore(catalog.root, () => clock.now);
  const { verifier, challenge } = verifierPair();
  const request: CodeRequest = {
    clientId: CLIENT,
    userId: 'u_0123456789abcdef',
    redirectUri: REDIRECT,
    scope: ['openid', 'profile', 'email', 'catalog:read'],
    codeChallenge: challenge,
    nonce: 'n-1',
    authTime: T0 / 1000 - 5,
  };
  const redeem = async () => store.redeemCode(await store.issueCode(request), CLIENT, REDIRECT, verifier);
  return { catalog, clock, store, request, verifier, redeem };
}

const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);

t.test('a code redeems once for a grant and a refresh token', async (t) => {
  const { store, request, verifier } = setup(t);
  const code = await store.issueCode(request);
  t.match(code, /^[A-Za-z0-9_-]{43}$/);
  const { grant, refreshToken } = await store.redeemCode(code, CLIENT, REDIRECT, verifier);
  t.match(refreshToken, /^[A-Za-z0-9_-]{43}$/);
  t.same(grant, {
    grant_id: grant.grant_id,
    client_id: CLIENT,
    user_id: 'u_0123456789abcdef',
    scope: ['openid', 'profile', 'email', 'catalog:read'],
    generation: 1,
    created: '2026-01-01T00:00:00Z',
    revoked: null,
    auth_time: T0 / 1000 - 5,
    nonce: 'n-1',
  });
  t.match(grant.grant_id, /^g_[0-9a-f]{24}$/);
  t.same(store.get(grant.grant_id), grant);
  t.equal(store.get('g_nope'), undefined);
});

t.test('redeemCode: every invalid_grant case', async (t) => {
  const { store, clock, request, verifier } = setup(t);
  await t.rejects(store.redeemCode('nope', CLIENT, REDIRECT, verifier), invalidGrant('unknown authorization code'));

  const expiring = await store.issueCode(request);
  clock.now += CODE_TTL_MS;
  await t.rejects(store.redeemCode(expiring, CLIENT, REDIRECT, verifier), invalidGrant('authorization code expired'));
  clock.now -= 1;
  t.ok((await store.redeemCode(expiring, CLIENT, REDIRECT, verifier)).grant, 'valid until the last millisecond');

  const code = await store.issueCode(request);
  await t.rejects(store.redeemCode(code, 'c_other', REDIRECT, verifier), invalidGrant('authorization code issued to another client'));
  await t.rejects(store.redeemCode(code, CLIENT, `${REDIRECT}/`, verifier), invalidGrant('redirect_uri differs from the authorization request'));
  await t.rejects(store.redeemCode(code, CLIENT, REDIRECT, verifierPair().verifier), invalidGrant('code_verifier does not match the code_challenge'));
  await t.rejects(store.redeemCode(code, CLIENT, REDIRECT, ''), invalidGrant('code_verifier does not match the code_challenge'));
  t.ok((await store.redeemCode(code, CLIENT, REDIRECT, verifier)).grant, 'failed attempts do not use the code up');
});

t.test('a second redemption fails and revokes the grant made by the first', async (t) => {
  const { store, clock, request, verifier } = setup(t);
  const code = await store.issueCode(request);
  const { grant, refreshToken } = await store.redeemCode(code, CLIENT, REDIRECT, verifier);
  clock.now += 1000;
  await t.rejects(store.redeemCode(code, CLIENT, REDIRECT, verifier), invalidGrant('authorization code already used: the tokens issued for it are revoked'));
  t.equal(store.get(grant.grant_id)?.revoked, '2026-01-01T00:00:01Z', 'the revocation was committed');
  await t.rejects(store.refresh(refreshToken, CLIENT), invalidGrant('refresh token revoked'));
  clock.now += CODE_TTL_MS;
  await t.rejects(store.redeemCode(code, CLIENT, REDIRECT, verifier), invalidGrant('authorization code already used: the tokens issued for it are revoked'), 'a replay after expiry is still recognised');
});

t.test('refresh rotates: new token, next generation; the old one is spent', async (t) => {
  const { store, redeem } = setup(t);
  const first = await redeem();
  const second = await store.refresh(first.refreshToken, CLIENT);
  t.not(second.refreshToken, first.refreshToken);
  t.same(second.grant, { ...first.grant, generation: 2 });
  t.same(second.scope, first.grant.scope, 'no scope: the grant’s');
  t.equal(store.get(first.grant.grant_id)?.generation, 2);

  const narrowed = await store.refresh(second.refreshToken, CLIENT, ['catalog:read']);
  t.same(narrowed.scope, ['catalog:read']);
  t.same(narrowed.grant.scope, first.grant.scope, 'narrowing one access token leaves the grant whole');
  t.equal(narrowed.grant.generation, 3);

  await t.rejects(store.refresh(narrowed.refreshToken, CLIENT, ['catalog:read', 'fingerprint']), new OAuthError('invalid_scope', 'scope wider than the grant: fingerprint'));
  t.equal(store.get(first.grant.grant_id)?.generation, 3, 'a refused scope rotates nothing');
  const again = await store.refresh(narrowed.refreshToken, CLIENT);
  t.equal(again.grant.generation, 4, 'the token is still current after invalid_scope');
});

t.test('refresh: every invalid_grant case; a spent token revokes the family', async (t) => {
  const { store, redeem } = setup(t);
  await t.rejects(store.refresh('nope', CLIENT), invalidGrant('unknown refresh token'));
  const first = await redeem();
  await t.rejects(store.refresh(first.refreshToken, 'c_other'), invalidGrant('refresh token issued to another client'));
  const second = await store.refresh(first.refreshToken, CLIENT);
  await t.rejects(store.refresh(first.refreshToken, CLIENT), invalidGrant('refresh token already used: the grant is revoked'));
  t.match(store.get(first.grant.grant_id)?.revoked, /^2026-/, 'the family is revoked');
  await t.rejects(store.refresh(second.refreshToken, CLIENT), invalidGrant('refresh token revoked'), 'the newest token dies with it');

  const other = await redeem();
  await store.revoke(other.grant.grant_id);
  await t.rejects(store.refresh(other.refreshToken, CLIENT), invalidGrant('refresh token revoked'));
  await store.revoke('g_nope'); // unknown: nothing to do, no error
});

t.test('two concurrent refreshes with one token: exactly one succeeds', async (t) => {
  const { catalog, store, redeem } = setup(t);
  const other = new GrantStore(catalog.root); // a second store on the same environment, as another server would have
  const { grant, refreshToken } = await redeem();
  const results = await Promise.allSettled([
    Promise.resolve().then(() => store.refresh(refreshToken, CLIENT)),
    Promise.resolve().then(() => other.refresh(refreshToken, CLIENT)),
  ]);
  t.same(results.map((r) => r.status), ['fulfilled', 'rejected']);
  t.same((results[1] as PromiseRejectedResult).reason, invalidGrant('refresh token already used: the grant is revoked'));
  t.equal(other.get(grant.grant_id)?.generation, 2, 'one rotation happened');
  t.ok(other.get(grant.grant_id)?.revoked, 'the loser revoked the family');
});

t.test('expired codes are pruned when codes are issued', async (t) => {
  const { catalog, store, clock, request } = setup(t);
  const codes = catalog.root.openDB({ name: 'oauth-codes' });
  await store.issueCode(request);
  t.equal(codes.getKeysCount(), 1);
  clock.now += 2 * 3600_000;
  await store.issueCode(request);
  t.equal(codes.getKeysCount(), 1, 'the stale code went, the new one stays');
});
