/**
 * The token endpoint's refusals: client authentication (Basic, post, both, wrong), the request
 * format, grant types a client is not registered for, and the code and refresh-token attacks
 * (wrong verifier, reuse, concurrent redemption, another client's code or refresh token).
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { randomBytes } from 'node:crypto';
import { createUser, obtainCode, postForm, REDIRECT_URI, registerClient, s256, type TestClient } from '../helpers/oauth.js';

t.test('token endpoint', async (t) => {
  const s = await startTestServer(t, { flags: ['--oauth-insecure-cookies'] });
  const c = registerClient(s);
  const other = registerClient(s, { name: 'Other Portal' });
  const user = await createUser(s);
  const cc = { grant_type: 'client_credentials', scope: 'catalog:read' };
  const introspect = async (token: string) => (await postForm(s, '/oauth/token-metadata', { token }, { basic: c })).json;

  t.test('client_secret_basic, percent-decoded halves (RFC 6749 §2.3.1)', async (t) => {
    const ok = await postForm(s, '/oauth/token', cc, { basic: c });
    t.equal(ok.status, 200);
    t.equal(ok.headers.get('cache-control'), 'no-store');
    t.equal(ok.headers.get('pragma'), 'no-cache');
    t.match(ok.json, { token_type: 'Bearer', expires_in: 3600, scope: 'catalog:read', access_token: String });
    const encodeAll = (v: string) => [...v].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const encoded = await postForm(s, '/oauth/token', cc, { basic: { id: encodeAll(c.id), secret: encodeAll(c.secret) } });
    t.equal(encoded.status, 200, 'both halves are form-urldecoded');
  });

  t.test('client_secret_post', async (t) => {
    const ok = await postForm(s, '/oauth/token', { ...cc, client_id: c.id, client_secret: c.secret });
    t.equal(ok.status, 200);
  });

  t.test('failed client authentication', async (t) => {
    const basic = await postForm(s, '/oauth/token', cc, { basic: { id: c.id, secret: `${c.secret}x` } });
    t.equal(basic.status, 401, 'wrong Basic secret');
    t.equal(basic.headers.get('www-authenticate'), 'Basic realm="refrain"');
    t.equal(basic.json.error, 'invalid_client');
    t.equal(basic.headers.get('cache-control'), 'no-store');
    const unknown = await postForm(s, '/oauth/token', cc, { basic: { id: 'c_ffffffffffffffff', secret: c.secret } });
    t.equal(unknown.status, 401, 'unknown client');
    t.equal(unknown.headers.get('www-authenticate'), 'Basic realm="refrain"');
    const post = await postForm(s, '/oauth/token', { ...cc, client_id: c.id, client_secret: other.secret });
    t.equal(post.status, 401, "another client's secret in the body");
    t.same(post.json, { error: 'invalid_client', error_description: 'client authentication failed' });
    const none = await postForm(s, '/oauth/token', { ...cc, client_id: c.id });
    t.equal(none.status, 401, 'no secret at all');
    t.equal(none.json.error, 'invalid_client');
    const garbled = await postForm(s, '/oauth/token', cc, { headers: { authorization: 'Basic !!!' } });
    t.equal(garbled.status, 401, 'a malformed Basic header');
    const badEscape = await postForm(s, '/oauth/token', cc, { basic: { id: '%zz', secret: c.secret } });
    t.equal(badEscape.status, 401, 'malformed percent-encoding');
    const revoked = registerClient(s);
    s.server.oauth.clients.revoke(revoked.id);
    t.equal((await postForm(s, '/oauth/token', cc, { basic: revoked })).status, 401, 'a revoked client');
  });

  t.test('both authentication methods at once: invalid_request', async (t) => {
    const both = await postForm(s, '/oauth/token', { ...cc, client_id: c.id, client_secret: c.secret }, { basic: c });
    t.equal(both.status, 400);
    t.equal(both.json.error, 'invalid_request');
    t.match(both.json.error_description, /one client authentication method/);
  });

  t.test('the request format', async (t) => {
    const json = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${c.id}:${c.secret}`).toString('base64')}` },
      body: JSON.stringify(cc),
    });
    t.equal(json.status, 400, 'JSON is not accepted');
    t.same(await json.json(), { error: 'invalid_request', error_description: 'the body must be application/x-www-form-urlencoded' });
    const repeated = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=${c.id}&client_secret=${c.secret}&scope=catalog:read&scope=fingerprint`,
    });
    t.equal(repeated.status, 400);
    t.match(await repeated.json(), { error: 'invalid_request', error_description: 'parameter scope is repeated' });
    const big = await postForm(s, '/oauth/token', { ...cc, pad: 'x'.repeat(20_000) }, { basic: c });
    t.equal(big.status, 413, 'a body over the form limit');
    t.equal(big.json.error, 'invalid_request');
    const noGrant = await postForm(s, '/oauth/token', {}, { basic: c });
    t.same(noGrant.json, { error: 'invalid_request', error_description: 'grant_type is required' });
    const password = await postForm(s, '/oauth/token', { grant_type: 'password', username: 'a', password: 'b' }, { basic: c });
    t.equal(password.status, 400);
    t.equal(password.json.error, 'unsupported_grant_type');
  });

  t.test('grant types the client is not registered for: unauthorized_client', async (t) => {
    const machine = registerClient(s, { grantTypes: ['client_credentials'], scopes: ['catalog:read'], redirectUris: [] });
    const code = await postForm(s, '/oauth/token', { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) }, { basic: machine });
    t.equal(code.status, 400);
    t.equal(code.json.error, 'unauthorized_client');
    const refresh = await postForm(s, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x' }, { basic: machine });
    t.equal(refresh.json.error, 'unauthorized_client');
    const portal = registerClient(s, { grantTypes: ['authorization_code'] });
    t.equal((await postForm(s, '/oauth/token', cc, { basic: portal })).json.error, 'unauthorized_client', 'no client_credentials');
    const { code: issued, verifier } = await obtainCode(s, portal, user.email);
    const tokens = await postForm(s, '/oauth/token', { grant_type: 'authorization_code', code: issued, redirect_uri: REDIRECT_URI, code_verifier: verifier }, { basic: portal });
    t.equal(tokens.status, 200);
    t.equal(tokens.json.refresh_token, undefined, 'no refresh token for a client without the refresh_token grant');
  });

  const redeem = (client: TestClient, code: string, verifier: string, redirectUri = REDIRECT_URI) =>
    postForm(s, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, { basic: client });

  t.test('authorization codes: verifier, redirect_uri, client, reuse', async (t) => {
    const { code, verifier } = await obtainCode(s, c, user.email);
    const missing = await postForm(s, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }, { basic: c });
    t.same(missing.json, { error: 'invalid_request', error_description: 'code_verifier is required' }, 'the verifier is required');
    const wrongVerifier = await redeem(c, code, randomBytes(32).toString('base64url'));
    t.equal(wrongVerifier.status, 400);
    t.equal(wrongVerifier.json.error, 'invalid_grant', 'a wrong verifier');
    t.equal((await redeem(c, code, s256(verifier))).json.error, 'invalid_grant', 'the challenge itself as verifier (plain downgrade)');
    t.equal((await redeem(c, code, verifier, 'https://app.example.com/cb')).json.error, 'invalid_grant', 'another redirect_uri');
    t.equal((await redeem(other, code, verifier)).json.error, 'invalid_grant', "another client can't redeem it");

    const first = await redeem(c, code, verifier);
    t.equal(first.status, 200, 'the right client, verifier and redirect_uri');
    const access = first.json.access_token as string;
    t.equal((await introspect(access)).active, true);
    const second = await redeem(c, code, verifier);
    t.equal(second.status, 400);
    t.equal(second.json.error, 'invalid_grant', 'a code redeems once');
    t.same(await introspect(access), { active: false }, "the reuse revoked the first redemption's tokens");
    const refreshed = await postForm(s, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.json.refresh_token as string }, { basic: c });
    t.equal(refreshed.json.error, 'invalid_grant', 'and its refresh token');
  });

  t.test('one code redeemed concurrently: exactly one success', async (t) => {
    const { code, verifier } = await obtainCode(s, c, user.email);
    const answers = await Promise.all(Array.from({ length: 4 }, () => redeem(c, code, verifier)));
    t.equal(answers.filter((a) => a.status === 200).length, 1);
    t.same(answers.filter((a) => a.status !== 200).map((a) => a.json.error), ['invalid_grant', 'invalid_grant', 'invalid_grant']);
  });

  t.test("refresh tokens: another client's is invalid_grant; a spent one kills the family", async (t) => {
    const { code, verifier } = await obtainCode(s, c, user.email);
    const tokens = (await redeem(c, code, verifier)).json;
    const refresh = (client: TestClient, token: string, extra: Record<string, string> = {}) =>
      postForm(s, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token, ...extra }, { basic: client });
    const stolen = await refresh(other, tokens.refresh_token as string);
    t.equal(stolen.status, 400);
    t.equal(stolen.json.error, 'invalid_grant', "another client's refresh token");
    t.equal((await refresh(c, 'unknown-token')).json.error, 'invalid_grant', 'an unknown refresh token');
    t.equal((await refresh(c, tokens.refresh_token as string, { scope: 'profile email works:write' })).json.error, 'invalid_scope', 'a wider scope');
    t.equal((await refresh(c, tokens.refresh_token as string, { scope: 'profile bogus' })).json.error, 'invalid_scope', 'an unknown scope');

    const next = await refresh(c, tokens.refresh_token as string);
    t.equal(next.status, 200, 'the owner refreshes (the failed attempts spent nothing)');
    t.not(next.json.refresh_token, tokens.refresh_token);
    t.same(await introspect(tokens.access_token as string), { active: false }, 'the previous access token died with its refresh token');
    t.equal((await introspect(next.json.access_token as string)).active, true);
    const replay = await refresh(c, tokens.refresh_token as string);
    t.equal(replay.json.error, 'invalid_grant', 'the spent refresh token');
    t.same(await introspect(next.json.access_token as string), { active: false }, 'the whole family is revoked');
    t.equal((await refresh(c, next.json.refresh_token as string)).json.error, 'invalid_grant', 'even the latest refresh token');
  });

  t.test('client credentials scope rules', async (t) => {
    const all = await postForm(s, '/oauth/token', { grant_type: 'client_credentials' }, { basic: c });
    t.equal(all.json.scope, 'catalog:read fingerprint');
    t.equal(all.json.refresh_token, undefined);
    t.equal(all.json.id_token, undefined);
    t.equal((await postForm(s, '/oauth/token', { grant_type: 'client_credentials', scope: 'profile' }, { basic: c })).json.error, 'invalid_scope');
    t.equal((await postForm(s, '/oauth/token', { grant_type: 'client_credentials', scope: 'feeds:read' }, { basic: c })).json.error, 'invalid_scope');
  });
});
