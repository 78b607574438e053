import t, { type Test } from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { Catalog } from '../../src/catalog/store.js';
import { ClientStore, type GrantType } from '../../src/oauth/clients.js';
import { OAuthError } from '../../src/oauth/errors.js';
import { GrantStore } from '../../src/oauth/grants.js';
import type { Scope } from '../../src/oauth/scopes.js';
import { SigningKeys } from '../../src/oauth/signing-keys.js';
import { TokenService } from '../../src/oauth/tokens.js';
import { UserStore } from '../../src/oauth/users.js';
import { tempDir } from '../helpers/tmp.js';

const ISSUER = 'https://lyrics.example.com';
const REDIRECT = 'https://partner.example/cb';
const T0 = Date.UTC(2026, 0, 1);
const USER_SCOPES = ['openid', 'profile', 'email', 'catalog:read'];

async function setup(t: Test) {
  const data = tempDir(t);
  const catalog = Catalog.open(data);
  t.teardown(() => catalog.close());
  const clock = { now: T0 };
  const clients = new ClientStore(catalog.root);
  const users = new UserStore(catalog.root);
  const grants = new GrantStore(catalog.root, () => clock.now);
  const keys = await SigningKeys.open(data);
  const deps = { keys, grants, clients, users, issuer: ISSUER, accessTtl: 3600, clock: () => clock.now };
  const tokens = new TokenService(deps);
  const user = await users.create({ email: 'artist@example.com', name: 'An Artist', password: 'correct horse battery' });
  const makeClient = (grantTypes: GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials'], scopes: Scope[] = ['openid', 'profile', 'email', 'catalog:read', 'fingerprint']) =>
    clients.create({ name: 'Partner', redirectUris: [REDIRECT], grantTypes, scopes, plan: 'enterprise' }).record;
  const client = makeClient();
  /** The code flow up to the token response, as the token endpoint runs it. */
  const codeFlow = async (scope = USER_SCOPES, clientId = client.client_id) => {
    const verifier = randomBytes(32).toString('base64url');
    const code = await grants.issueCode({
      clientId, userId: user.user_id, redirectUri: REDIRECT, scope,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'), nonce: 'n-0S6', authTime: T0 / 1000 - 30,
    });
    const { grant, refreshToken } = await grants.redeemCode(code, clientId, REDIRECT, verifier);
    return { code, verifier, grant, response: await tokens.issueForGrant(grant, grant.scope, refreshToken) };
  };
  return { data, catalog, clock, clients, users, grants, keys, deps, tokens, user, client, makeClient, codeFlow };
}

t.test('the code flow: access token, refresh token, ID token', async (t) => {
  const { tokens, keys, user, client, grant, response } = await setup(t).then(async (s) => ({ ...s, ...(await s.codeFlow()) }));
  t.match(response, { token_type: 'Bearer', expires_in: 3600, scope: 'openid profile email catalog:read', refresh_token: /^[A-Za-z0-9_-]{43}$/ });
  t.same(Object.keys(response).sort(), ['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type']);

  t.same(decodeProtectedHeader(response.access_token), { alg: 'RS256', kid: keys.current.kid, typ: 'at+jwt' });
  const access = decodeJwt(response.access_token);
  t.same(access, {
    iss: ISSUER, sub: user.user_id, client_id: client.client_id, scope: 'openid profile email catalog:read',
    jti: access.jti, iat: T0 / 1000, exp: T0 / 1000 + 3600, gid: grant.grant_id, gen: 1,
  });
  t.match(access.jti, /^[A-Za-z0-9_-]{22}$/);

  t.same(decodeProtectedHeader(response.id_token!), { alg: 'RS256', kid: keys.current.kid, typ: 'JWT' });
  t.same(decodeJwt(response.id_token!), {
    iss: ISSUER, sub: user.user_id, aud: client.client_id, iat: T0 / 1000, exp: T0 / 1000 + 3600,
    auth_time: T0 / 1000 - 30, nonce: 'n-0S6', email: 'artist@example.com', email_verified: true, name: 'An Artist',
  });

  t.equal(tokens.cachedClaims(response.access_token), undefined, 'not cached before the first verify');
  const claims = await tokens.verify(response.access_token);
  t.same(claims, { ...access, scope: ['openid', 'profile', 'email', 'catalog:read'] });
  t.same(tokens.cachedClaims(response.access_token), claims, 'cached after it');
});

t.test('ID token claims follow the scope; no openid, no ID token', async (t) => {
  const s = await setup(t);
  const profileOnly = await s.codeFlow(['openid', 'profile']);
  const id = decodeJwt(profileOnly.response.id_token!);
  t.equal(id.name, 'An Artist');
  t.notOk('email' in id || 'email_verified' in id, 'no email without the email scope');
  const noOpenid = await s.codeFlow(['profile', 'email', 'catalog:read']);
  t.notOk('id_token' in noOpenid.response);
});

t.test('no refresh token for a client not registered for refresh_token', async (t) => {
  const s = await setup(t);
  const codeOnly = s.makeClient(['authorization_code']);
  const { response } = await s.codeFlow(USER_SCOPES, codeOnly.client_id);
  t.notOk('refresh_token' in response);
  t.ok(await s.tokens.verify(response.access_token));
});

t.test('refresh rotation kills the old access token; a spent refresh token kills the family', async (t) => {
  const { tokens, grants, client, codeFlow } = await setup(t);
  const first = await codeFlow();
  t.ok(await tokens.verify(first.response.access_token));

  const rotated = await grants.refresh(first.response.refresh_token!, client.client_id, ['catalog:read']);
  const second = await tokens.issueForGrant(rotated.grant, rotated.scope, rotated.refreshToken);
  t.match(second, { scope: 'catalog:read', refresh_token: rotated.refreshToken });
  t.notOk('id_token' in second, 'narrowed to no openid');
  t.equal(decodeJwt(second.access_token).gen, 2);
  t.equal(await tokens.verify(first.response.access_token), undefined, 'the old access token is dead at once');
  t.equal(tokens.cachedClaims(first.response.access_token), null, 'cached, not live');
  t.match(await tokens.verify(second.access_token), { scope: ['catalog:read'], gen: 2 });

  await t.rejects(grants.refresh(first.response.refresh_token!, client.client_id), new OAuthError('invalid_grant', 'refresh token already used: the grant is revoked'));
  t.equal(await tokens.verify(second.access_token), undefined, 'reusing the spent token killed the newest access token');
  t.equal(tokens.cachedClaims(second.access_token), null);
});

t.test('a replayed code revokes the tokens issued for it', async (t) => {
  const { tokens, grants, client, codeFlow } = await setup(t);
  const { code, verifier, response } = await codeFlow();
  t.ok(await tokens.verify(response.access_token));
  await t.rejects(grants.redeemCode(code, client.client_id, REDIRECT, verifier), new OAuthError('invalid_grant', 'authorization code already used: the tokens issued for it are revoked'));
  t.equal(await tokens.verify(response.access_token), undefined);
});

t.test('client credentials: sub is the client, no refresh or ID token', async (t) => {
  const { tokens, clients, client } = await setup(t);
  const response = await tokens.issueClientCredentials(client, ['catalog:read', 'fingerprint']);
  t.same(Object.keys(response).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
  t.match(response, { token_type: 'Bearer', expires_in: 3600, scope: 'catalog:read fingerprint' });
  const claims = await tokens.verify(response.access_token);
  t.same(claims, {
    iss: ISSUER, sub: client.client_id, client_id: client.client_id, scope: ['catalog:read', 'fingerprint'],
    jti: claims?.jti, iat: T0 / 1000, exp: T0 / 1000 + 3600,
  });
  clients.revoke(client.client_id);
  t.equal(tokens.cachedClaims(response.access_token), null, 'a revoked client: dead on the next call');
  t.equal(await tokens.verify(response.access_token), undefined);
});

t.test('verify rejects what is not a live token of this issuer', async (t) => {
  const s = await setup(t);
  const { response } = await s.codeFlow();
  const token = response.access_token;
  const [h, p, sig] = token.split('.');
  const flip = sig[10] === 'A' ? 'B' : 'A';
  t.equal(await s.tokens.verify(`${h}.${p}.${sig.slice(0, 10)}${flip}${sig.slice(11)}`), undefined, 'tampered signature');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  const forged = Buffer.from(JSON.stringify({ ...claims, scope: 'catalog:read fingerprint works:write' })).toString('base64url');
  t.equal(await s.tokens.verify(`${h}.${forged}.${sig}`), undefined, 'tampered claims');
  for (const junk of ['', 'abc', 'a.b.c', `${token}x`, 'x'.repeat(5000)]) t.equal(await s.tokens.verify(junk), undefined, `junk ${junk.slice(0, 12)}`);
  t.equal(await s.tokens.verify(response.id_token!), undefined, 'an ID token is not an access token (typ)');
  t.equal(await s.tokens.verify(new UnsecuredJWT(claims).encode()), undefined, 'alg none');

  const otherIssuer = new TokenService({ ...s.deps, issuer: `${ISSUER}/` });
  t.equal(await otherIssuer.verify(token), undefined, 'the issuer must match byte for byte');
  const theirs = await otherIssuer.issueClientCredentials(s.client, ['catalog:read']);
  t.equal(await s.tokens.verify(theirs.access_token), undefined, 'a token of another issuer');

  const strangerKey = (await import('jose')).generateKeyPair('RS256');
  const stranger = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid: s.keys.current.kid, typ: 'at+jwt' }).sign((await strangerKey).privateKey);
  t.equal(await s.tokens.verify(stranger), undefined, 'signed by another key under our kid');

  t.ok(await s.tokens.verify(token), 'the genuine token is fine');
  s.clock.now += 3600_000;
  t.equal(s.tokens.cachedClaims(token), null, 'expired, cached');
  t.equal(await s.tokens.verify(token), undefined, 'expired');
  t.equal(await new TokenService(s.deps).verify(token), undefined, 'expired, uncached');
});

t.test('a disabled user: tokens dead at once, no new ones', async (t) => {
  const { tokens, users, grants, user, codeFlow } = await setup(t);
  const { grant, response } = await codeFlow();
  t.ok(await tokens.verify(response.access_token));
  users.disable(user.user_id);
  t.equal(tokens.cachedClaims(response.access_token), null);
  t.equal(await tokens.verify(response.access_token), undefined);
  const rotated = await grants.refresh(response.refresh_token!, grant.client_id);
  await t.rejects(tokens.issueForGrant(rotated.grant, rotated.scope, rotated.refreshToken), new OAuthError('invalid_grant', 'the user is disabled'));
  t.ok(grants.get(grant.grant_id)?.revoked, 'and the grant is revoked');
});

t.test('key rotation: old tokens still verify, new ones use the new key', async (t) => {
  const s = await setup(t);
  const before = await s.tokens.issueClientCredentials(s.client, ['catalog:read']);
  const oldKid = s.keys.current.kid;
  const { kid } = await SigningKeys.rotate(s.data);

  // Another server (or this one after a restart) that has the new key set.
  const restarted = new TokenService({ ...s.deps, keys: await SigningKeys.open(s.data) });
  t.ok(await restarted.verify(before.access_token), 'a token signed before the rotation verifies');
  const after = await restarted.issueClientCredentials(s.client, ['catalog:read']);
  t.equal(decodeProtectedHeader(after.access_token).kid, kid);

  // The running instance has not reloaded yet: an unknown kid makes it re-read the key file.
  t.ok(await s.tokens.verify(after.access_token), 'a token with the new kid verifies on the old instance');
  const jwks = s.keys.jwks();
  t.same(jwks.keys.map((k) => k.kid), [oldKid, kid]);
  for (const k of jwks.keys) t.same(Object.keys(k).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use'], 'public parts only');
  const next = await s.tokens.issueClientCredentials(s.client, ['catalog:read']);
  t.equal(decodeProtectedHeader(next.access_token).kid, kid, 'and signs with it from then on');
});

