/**
 * Bearer tokens on /ws/1.1/ (docs/oauth.md): a client-credentials token acts with its client's
 * plan, a user token for its subject; scopes limit methods (403 insufficient_scope); a missing,
 * malformed, forged or revoked token is 401 with WWW-Authenticate: Bearer; revocation and refresh
 * rotation take effect on the very next request although verified tokens are cached.
 */
import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { startTestServer, type TestServer, apiStatus } from '../helpers/server.js';
import { LYRICS } from '../helpers/fixtures.js';
import type { ClientRecord } from '../../src/oauth/clients.js';
import type { Scope } from '../../src/oauth/scopes.js';

const bearer = (token: string): RequestInit => ({ headers: { authorization: `Bearer ${token}` } });

function client(s: TestServer, plan: ClientRecord['plan'], scopes: Scope[]): ClientRecord {
  return s.server.oauth.clients.create({
    name: `bearer test ${plan}`,
    redirectUris: ['https://partner.example/callback'],
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
    scopes,
    plan,
  }).record;
}

async function clientToken(s: TestServer, record: ClientRecord, scopes: string[]): Promise<string> {
  return (await s.server.oauth.tokens.issueClientCredentials(record, scopes)).access_token;
}

function fingerprint(s: TestServer, token: string, text = LYRICS): Promise<Response> {
  return fetch(`${s.url}/ws/1.1/track.lyrics.fingerprint.post`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { text } }),
  });
}

t.test('Bearer tokens on the API', async (t) => {
  const s = await startTestServer(t);

  t.test('a client-credentials token reads the catalog with its client plan', async (t) => {
    const record = client(s, 'basic', ['catalog:read']);
    const token = await clientToken(s, record, ['catalog:read']);
    const first = await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(token));
    t.equal(first.status, 200, 'first use: the signature is verified off the request tick');
    t.equal(first.json.message.body.track.track_id, 1);
    const again = await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(token));
    t.equal(again.status, 200, 'second use: from the verified-token cache');
    const subtitle = await s.get('/ws/1.1/track.subtitle.get', { track_id: 1 }, bearer(token));
    t.not(subtitle.status, 403, 'basic plan: subtitles are allowed, as for a basic key');
  });

  t.test('scope and plan both limit a method', async (t) => {
    const reader = client(s, 'enterprise', ['catalog:read']);
    const noScope = await fingerprint(s, await clientToken(s, reader, ['catalog:read']));
    t.equal(apiStatus(noScope), 403);
    t.match(noScope.headers.get('www-authenticate'), /^Bearer realm="refrain", error="insufficient_scope", scope="fingerprint"$/);
    const body = (await noScope.json()) as { message: { header: { hint: string } } };
    t.match(body.message.header.hint, /lacks the fingerprint scope/);

    const screener = client(s, 'enterprise', ['catalog:read', 'fingerprint']);
    const token = await clientToken(s, screener, ['fingerprint']);
    const found = await fingerprint(s, token);
    t.equal(apiStatus(found), 200, 'a POST whose token is verified while its body is read');
    const json = (await found.json()) as { message: { body: { track_list: { similarity: number }[] } } };
    t.ok(json.message.body.track_list.length > 0);
    t.equal(apiStatus(await fingerprint(s, token)), 200, 'and again from the cache');
    const readOnly = await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(token));
    t.equal(readOnly.status, 403, 'a fingerprint-only token cannot read the catalog');

    const basic = client(s, 'basic', ['fingerprint']);
    const plan = await fingerprint(s, await clientToken(s, basic, ['fingerprint']));
    t.equal(apiStatus(plan), 403, 'the plan still applies to a token with the scope');
    t.equal(plan.headers.get('www-authenticate'), null);
  });

  t.test('401 for missing, malformed, forged and unknown tokens; 400 for two credentials', async (t) => {
    const none = await s.get('/ws/1.1/track.get', { track_id: 1 });
    t.equal(none.status, 401);
    t.equal(none.headers.get('www-authenticate'), 'Bearer realm="refrain"');
    for (const header of ['Bearer', 'Bearer ', 'Bearer a b']) {
      const r = await s.get('/ws/1.1/track.get', { track_id: 1 }, { headers: { authorization: header } });
      t.equal(r.status, 401, header);
      t.match(r.headers.get('www-authenticate'), /error="invalid_token"/);
    }
    const record = client(s, 'basic', ['catalog:read']);
    const token = await clientToken(s, record, ['catalog:read']);
    const [head, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const widened = Buffer.from(JSON.stringify({ ...claims, scope: 'catalog:read fingerprint' })).toString('base64url');
    for (const forged of [`${head}.${widened}.${signature}`, `${head}.${payload}.${randomBytes(256).toString('base64url')}`, randomBytes(24).toString('hex')]) {
      const r = await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(forged));
      t.equal(r.status, 401);
      t.match(r.headers.get('www-authenticate'), /^Bearer realm="refrain", error="invalid_token"/);
      t.equal(r.json.message.header.status_code, 401);
    }
    const both = await s.get('/ws/1.1/track.get', { track_id: 1, apikey: s.keys.basic }, bearer(token));
    t.equal(both.status, 400);
    t.match(both.json.message.header.hint, /either the apikey parameter or an Authorization: Bearer token/);
  });

  t.test('revoking the client ends its tokens at once, cached or not', async (t) => {
    const record = client(s, 'basic', ['catalog:read']);
    const token = await clientToken(s, record, ['catalog:read']);
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(token))).status, 200);
    s.server.oauth.clients.revoke(record.client_id);
    const r = await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(token));
    t.equal(r.status, 401);
    t.match(r.headers.get('www-authenticate'), /invalid_token/);
  });

  t.test('a user token acts for its subject; a refresh ends the access token issued before it', async (t) => {
    const { oauth } = s.server;
    const record = client(s, 'basic', ['profile', 'email', 'catalog:read']);
    const user = await oauth.users.create({ email: `artist-${randomBytes(4).toString('hex')}@example.com`, name: 'An Artist', password: 'correct horse battery' });
    const verifier = randomBytes(32).toString('base64url');
    const code = await oauth.grants.issueCode({
      clientId: record.client_id,
      userId: user.user_id,
      redirectUri: record.redirect_uris[0],
      scope: ['profile', 'email', 'catalog:read'],
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      authTime: Math.floor(Date.now() / 1000),
    });
    const redeemed = await oauth.grants.redeemCode(code, record.client_id, record.redirect_uris[0], verifier);
    const first = await oauth.tokens.issueForGrant(redeemed.grant, redeemed.grant.scope, redeemed.refreshToken);
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(first.access_token))).status, 200);
    t.equal((await oauth.tokens.verify(first.access_token))?.sub, user.user_id, 'the token acts for the user');

    const rotated = await oauth.grants.refresh(redeemed.refreshToken, record.client_id);
    const second = await oauth.tokens.issueForGrant(rotated.grant, rotated.scope, rotated.refreshToken);
    const old = await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(first.access_token));
    t.equal(old.status, 401, 'the access token of the used refresh token stopped working');
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(second.access_token))).status, 200);

    oauth.users.disable(user.user_id);
    t.equal((await s.get('/ws/1.1/track.get', { track_id: 1 }, bearer(second.access_token))).status, 401, 'a disabled user');
  });
});
