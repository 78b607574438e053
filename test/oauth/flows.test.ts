/**
 * Every OAuth flow driven by a real client library (openid-client v6) against the real server:
 * discovery, authorization code + PKCE through the login and consent pages, refresh rotation,
 * client credentials, introspection, Bearer tokens on /ws/1.1/, and the logs after all of it.
 */
import t from 'tap';
import { Writable } from 'node:stream';
import * as client from 'openid-client';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { startTestServer } from '../helpers/server.js';
import { createLogger } from '../../src/log.js';
import { parseCommand } from '../../src/config.js';
import { authorizationUrl, Browser, createUser, discover, PASSWORD, postForm, REDIRECT_URI, registerClient, rejectsWith, signInAndConsent } from '../helpers/oauth.js';

t.test('the OAuth flows with openid-client, and logs that hold no secret', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const s = await startTestServer(t, { flags: ['--oauth-insecure-cookies', '--access-log'], server: { logger: createLogger('debug', sink) } });
  const c = registerClient(s);
  const user = await createUser(s);
  const issuer = s.server.url;
  /** Every secret the flows handle: none may reach a log line. */
  const secrets: string[] = [c.secret, PASSWORD];

  const config = await discover(s, c);

  t.test('discovery: both documents, the issuer byte for byte, the JWKS', async (t) => {
    const meta = config.serverMetadata();
    t.equal(meta.issuer, issuer);
    t.equal(meta.token_endpoint, `${issuer}/oauth/token`);
    t.equal(meta.authorization_endpoint, `${issuer}/oauth/authorize`);
    t.equal(meta.introspection_endpoint, `${issuer}/oauth/token-metadata`);
    t.same(meta.code_challenge_methods_supported, ['S256']);
    t.same(meta.response_types_supported, ['code']);
    t.same(meta.id_token_signing_alg_values_supported, ['RS256']);
    t.same(meta.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post']);
    t.equal(meta.authorization_response_iss_parameter_supported, true);
    const rfc8414 = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json();
    t.same(rfc8414, meta, 'the RFC 8414 document is the same');
    const jwks = (await (await fetch(`${s.url}/oauth/jwks`)).json()) as { keys: Record<string, unknown>[] };
    t.ok(jwks.keys.length >= 1);
    for (const key of jwks.keys) {
      t.match(key, { kty: 'RSA', alg: 'RS256', use: 'sig', kid: String });
      for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi']) t.notOk(part in key, `no private part ${part}`);
    }
  });

  let refreshToken = '';
  let accessToken = '';

  t.test('authorization code + PKCE through the login and consent pages', async (t) => {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid profile email catalog:read',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const callback = await signInAndConsent(new Browser(), url, { email: user.email });
    t.equal(`${callback.origin}${callback.pathname}`, REDIRECT_URI);
    t.equal(callback.searchParams.get('state'), state);
    t.equal(callback.searchParams.get('iss'), issuer, 'RFC 9207 iss, byte for byte');
    const code = callback.searchParams.get('code')!;
    secrets.push(code, verifier);

    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    t.equal(tokens.token_type.toLowerCase(), 'bearer');
    t.equal(tokens.expires_in, 3600);
    t.equal(tokens.scope, 'openid profile email catalog:read');
    t.ok(tokens.refresh_token);
    const idClaims = tokens.claims()!;
    t.match(idClaims, { iss: issuer, sub: user.id, aud: c.id, email: user.email, email_verified: true, name: 'Ada Artist', nonce });
    t.type(idClaims.auth_time, 'number');
    t.equal(decodeProtectedHeader(tokens.access_token).typ, 'at+jwt');
    t.match(decodeJwt(tokens.access_token), { iss: issuer, sub: user.id, client_id: c.id, scope: 'openid profile email catalog:read' });
    secrets.push(tokens.access_token, tokens.refresh_token!, tokens.id_token!);
    refreshToken = tokens.refresh_token!;
    accessToken = tokens.access_token;

    const api = await fetch(`${s.url}/ws/1.1/track.get?track_id=1`, { headers: { authorization: `Bearer ${accessToken}` } });
    t.equal(api.status, 200, 'the access token works on /ws/1.1/');

    const info = await client.tokenIntrospection(config, accessToken);
    t.match(info, { active: true, sub: user.id, client_id: c.id, scope: 'openid profile email catalog:read', iss: issuer, token_type: 'Bearer' });
    t.type(info.exp, 'number');
    t.type(info.iat, 'number');
  });

  t.test('refresh rotation: new tokens, the old ones die, a spent refresh token kills the family', async (t) => {
    const rotated = await client.refreshTokenGrant(config, refreshToken);
    secrets.push(rotated.access_token, rotated.refresh_token!);
    t.not(rotated.refresh_token, refreshToken, 'a new refresh token');
    t.equal(rotated.scope, 'openid profile email catalog:read');
    t.same(await client.tokenIntrospection(config, accessToken), { active: false }, 'the access token of the spent refresh token died');
    t.equal((await client.tokenIntrospection(config, rotated.access_token)).active, true);

    const narrower = await client.refreshTokenGrant(config, rotated.refresh_token!, { scope: 'profile email' });
    secrets.push(narrower.access_token, narrower.refresh_token!);
    t.equal(narrower.scope, 'profile email', 'a narrower scope on refresh');
    t.equal((await fetch(`${s.url}/ws/1.1/track.get?track_id=1`, { headers: { authorization: `Bearer ${narrower.access_token}` } })).status, 403, 'without catalog:read');
    await rejectsWith(t, client.refreshTokenGrant(config, narrower.refresh_token!, { scope: 'profile email fingerprint' }), 'invalid_scope', 'never wider');

    await rejectsWith(t, client.refreshTokenGrant(config, refreshToken), 'invalid_grant', 'the first refresh token is spent');
    t.same(await client.tokenIntrospection(config, narrower.access_token), { active: false }, 'reuse revoked the whole family');
    await rejectsWith(t, client.refreshTokenGrant(config, narrower.refresh_token!), 'invalid_grant', 'its latest refresh token too');
  });

  t.test('client credentials: the client API scopes, no refresh token', async (t) => {
    const all = await client.clientCredentialsGrant(config);
    secrets.push(all.access_token);
    t.equal(all.scope, 'catalog:read fingerprint', 'every API scope of the client when scope is omitted');
    t.equal(all.refresh_token, undefined);
    t.match(decodeJwt(all.access_token), { sub: c.id, client_id: c.id });
    const one = await client.clientCredentialsGrant(config, { scope: 'catalog:read' });
    secrets.push(one.access_token);
    t.equal(one.scope, 'catalog:read');
    t.match(await client.tokenIntrospection(config, one.access_token), { active: true, sub: c.id, client_id: c.id, scope: 'catalog:read' });
    t.equal((await fetch(`${s.url}/ws/1.1/track.get?track_id=1`, { headers: { authorization: `Bearer ${one.access_token}` } })).status, 200);
    await rejectsWith(t, client.clientCredentialsGrant(config, { scope: 'openid' }), 'invalid_scope', 'no OIDC scope');
    await rejectsWith(t, client.clientCredentialsGrant(config, { scope: 'works:write' }), 'invalid_scope', 'no scope the client lacks');
  });

  t.test('client_secret_post works as well as Basic', async (t) => {
    const post = await discover(s, c, client.ClientSecretPost(c.secret));
    const tokens = await client.clientCredentialsGrant(post, { scope: 'catalog:read' });
    secrets.push(tokens.access_token);
    t.equal((await client.tokenIntrospection(post, tokens.access_token)).active, true);
  });

  t.test('introspection accepts the spec accessToken field and answers exactly {active:false} otherwise', async (t) => {
    const basic = `Basic ${Buffer.from(`${c.id}:${c.secret}`).toString('base64')}`;
    const ask = async (body: Record<string, string>) => {
      const res = await fetch(`${s.url}/oauth/token-metadata`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body),
      });
      t.equal(res.headers.get('cache-control'), 'no-store');
      return { status: res.status, json: await res.json() };
    };
    const cc = await client.clientCredentialsGrant(config, { scope: 'catalog:read' });
    secrets.push(cc.access_token);
    t.match((await ask({ accessToken: cc.access_token })).json, { active: true, sub: c.id });
    t.same((await ask({ accessToken: 'nonsense' })).json, { active: false });
    t.same((await ask({ token: `${cc.access_token.slice(0, -4)}AAAA` })).json, { active: false }, 'a forged signature');
    t.same(await ask({}), { status: 400, json: { error: 'invalid_request', error_description: 'accessToken (or token) is required' } });
    const anonymous = await fetch(`${s.url}/oauth/token-metadata`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `accessToken=${cc.access_token}` });
    t.equal(anonymous.status, 401, 'client authentication is required');
    t.equal(((await anonymous.json()) as { error: string }).error, 'invalid_client');
  });

  t.test('no secret, password, code, verifier or token in any log line', async (t) => {
    // Failures too: a wrong password at the login page, a wrong secret at the token endpoint.
    const wrongPassword = 'not-the-password-42';
    const wrongSecret = 'not-the-client-secret-42';
    secrets.push(wrongPassword, wrongSecret);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'profile email',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: client.randomState(),
    });
    await t.rejects(signInAndConsent(new Browser(), url, { email: user.email, password: wrongPassword }), /expected the consent page/);
    const wrong = await discover(s, { id: c.id, secret: wrongSecret });
    await rejectsWith(t, client.clientCredentialsGrant(wrong), 'invalid_client', 'a wrong secret is refused');
    await new Promise((r) => setImmediate(r));
    const text = lines.join('\n');
    t.ok(lines.length > 0, 'something was logged');
    t.ok(secrets.length >= 10);
    for (const secret of secrets) t.notOk(text.includes(secret), `secret ${secret.slice(0, 6)}… is not logged`);
    t.match(text, /"path":"\/oauth\/authorize","status":200/, 'OAuth requests are access-logged by path');
    t.match(text, /"path":"\/oauth\/token","status":401/);
    t.notMatch(text, /code_challenge|client_secret|redirect_uri/, 'never with their query or body');
  });
});

t.test('--issuer and --access-token-ttl: the configured issuer byte for byte everywhere', async (t) => {
  const issuer = 'https://auth.example.test/refrain';
  const s = await startTestServer(t, { flags: ['--oauth-insecure-cookies', '--issuer', issuer, '--access-token-ttl', '600'] });
  const c = registerClient(s);
  const user = await createUser(s);
  const meta = (await (await fetch(`${s.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
  t.equal(meta.issuer, issuer);
  t.equal(meta.token_endpoint, `${issuer}/oauth/token`, 'endpoints are the issuer followed by the path');
  t.equal(meta.jwks_uri, `${issuer}/oauth/jwks`);

  const verifier = client.randomPKCECodeVerifier();
  const callback = await signInAndConsent(new Browser(), authorizationUrl(s, c, verifier), { email: user.email });
  t.equal(callback.searchParams.get('iss'), issuer, 'the iss parameter');
  const tokens = await postForm(s, '/oauth/token', { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier }, { basic: c });
  t.equal(tokens.json.expires_in, 600);
  t.equal(decodeJwt(tokens.json.access_token as string).iss, issuer, 'the access token');
  t.equal(decodeJwt(tokens.json.id_token as string).iss, issuer, 'the ID token');
  t.match((await postForm(s, '/oauth/token-metadata', { token: tokens.json.access_token as string }, { basic: c })).json, { active: true, iss: issuer });

  t.throws(() => parseCommand('serve', ['--issuer', 'https://auth.example.test/?tenant=1'], {}), /--issuer \(or REFRAIN_ISSUER\): an issuer has no query or fragment/);
  t.throws(() => parseCommand('serve', ['--issuer', 'ftp://auth.example.test'], {}), /--issuer/);
});
