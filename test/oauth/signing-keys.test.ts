import t from 'tap';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compactVerify, CompactSign } from 'jose';
import { SigningKeys } from '../../src/oauth/signing-keys.js';
import { tempDir } from '../helpers/tmp.js';

const PRIVATE = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

t.test('open creates one RS256 key in a 0600 file, and finds it again', async (t) => {
  const data = tempDir(t);
  const keys = await SigningKeys.open(data);
  const file = path.join(data, 'oauth', 'signing-keys.json');
  t.equal(statSync(file).mode & 0o777, 0o600);
  const jwks = keys.jwks();
  t.equal(jwks.keys.length, 1);
  t.match(jwks.keys[0], { kty: 'RSA', kid: keys.current.kid, alg: 'RS256', use: 'sig', e: 'AQAB', n: /^[A-Za-z0-9_-]{342}$/ });
  for (const f of PRIVATE) t.notOk(f in jwks.keys[0], `no ${f} in the JWKS`);
  t.ok(JSON.parse(readFileSync(file, 'utf8')).keys[0].jwk.d, 'the file holds the private key');
  const again = await SigningKeys.open(data);
  t.equal(again.current.kid, keys.current.kid, 'the same key after a restart');

  const jws = await new CompactSign(new TextEncoder().encode('x')).setProtectedHeader({ alg: 'RS256' }).sign(keys.current.privateKey);
  const { payload } = await compactVerify(jws, again.publicKey(keys.current.kid)!);
  t.equal(new TextDecoder().decode(payload), 'x', 'the private and public halves belong together');
  t.equal(keys.publicKey('nope'), undefined);
});

t.test('rotate adds a signing key and keeps the old ones; --retire keeps only the previous', async (t) => {
  const data = tempDir(t);
  const keys = await SigningKeys.open(data);
  const first = keys.current.kid;
  const second = await SigningKeys.rotate(data);
  t.same(second.kids, [first, second.kid]);
  t.not(second.kid, first);

  t.equal(keys.current.kid, first, 'a running instance signs with its key until it reloads');
  t.equal(await keys.reload(), true);
  t.equal(await keys.reload(), false, 'one stat when nothing changed');
  t.equal(keys.current.kid, second.kid);
  t.ok(keys.publicKey(first), 'the old key still verifies');
  t.same(keys.jwks().keys.map((k) => k.kid), [first, second.kid]);
  for (const k of keys.jwks().keys) for (const f of PRIVATE) t.notOk(f in k, `no ${f} in the JWKS`);

  const third = await SigningKeys.rotate(data);
  t.same(third.kids, [first, second.kid, third.kid]);
  const fourth = await SigningKeys.rotate(data, { retire: true });
  t.same(fourth.kids, [third.kid, fourth.kid], 'keys older than the previous one are dropped');
  const reopened = await SigningKeys.open(data);
  t.same(reopened.jwks().keys.map((k) => k.kid), [third.kid, fourth.kid]);
  t.equal(reopened.publicKey(first), undefined);
  t.equal(statSync(path.join(data, 'oauth', 'signing-keys.json')).mode & 0o777, 0o600, 'still 0600 after a rotation');
});

t.test('two concurrent opens of an empty data directory agree on one key', async (t) => {
  const data = tempDir(t);
  const [a, b] = await Promise.all([SigningKeys.open(data), SigningKeys.open(data)]);
  t.equal(a.current.kid, b.current.kid);
  t.equal(a.jwks().keys.length, 1);
});
