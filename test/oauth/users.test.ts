import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/store.js';
import { RefrainError } from '../../src/errors.js';
import { checkPassword, hashPassword, UserStore } from '../../src/oauth/users.js';
import { tempDir } from '../helpers/tmp.js';

const PASSWORD = 'correct horse battery';

function openStore(t: Test): UserStore {
  const catalog = Catalog.open(tempDir(t));
  t.teardown(() => catalog.close());
  return new UserStore(catalog.root);
}

t.test('password hashes: scrypt N=2^15 r=8 p=1, salted, verified', async (t) => {
  const hash = await hashPassword(PASSWORD);
  t.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  t.not(await hashPassword(PASSWORD), hash, 'a new salt each time');
  t.equal(await checkPassword(PASSWORD, hash), true);
  t.equal(await checkPassword(`${PASSWORD}!`, hash), false);
  t.equal(await checkPassword(PASSWORD, 'md5$abc'), false, 'an unknown scheme never matches');
});

t.test('create, get, list, verifyPassword, disable', async (t) => {
  const store = openStore(t);
  const user = await store.create({ email: ' Artist@Example.com ', name: 'An Artist', password: PASSWORD });
  t.match(user, { user_id: /^u_[0-9a-f]{16}$/, email: 'artist@example.com', name: 'An Artist', created: /^\d{4}-/, disabled: null });
  t.same(Object.keys(user).sort(), ['created', 'disabled', 'email', 'name', 'user_id'], 'no password hash in the record');
  t.same(store.get(user.user_id), user);
  t.same(store.list(), [user]);
  t.equal(store.get('email:artist@example.com'), undefined, 'the e-mail index is not a user');

  t.same(await store.verifyPassword('ARTIST@example.com', PASSWORD), user, 'e-mail compared case-insensitively');
  t.equal(await store.verifyPassword('artist@example.com', 'wrong password'), undefined);
  t.equal(await store.verifyPassword('nobody@example.com', PASSWORD), undefined);

  const v = store.version();
  const disabled = store.disable('Artist@example.com');
  t.match(disabled.disabled, /^\d{4}-/);
  t.equal(store.version(), v + 1, 'disabling bumps the version');
  t.equal(store.get(user.user_id)?.disabled, disabled.disabled);
  t.equal(await store.verifyPassword('artist@example.com', PASSWORD), undefined, 'a disabled user cannot log in');
  t.equal(store.disable(user.user_id).disabled, disabled.disabled, 'by id too; the first date stays');
});

t.test('create refuses bad e-mails, short passwords and duplicates', async (t) => {
  const store = openStore(t);
  await t.rejects(store.create({ email: 'not-an-email', name: 'X', password: PASSWORD }), new RefrainError('bad_request', 'not-an-email is not an e-mail address'));
  await t.rejects(store.create({ email: 'a@example.com', name: 'X', password: '123456789' }), new RefrainError('bad_request', 'the password must have at least 10 characters'));
  await t.rejects(store.create({ email: 'a@example.com', name: ' ', password: PASSWORD }), new RefrainError('bad_request', 'the name must have 1 to 200 characters'));
  await store.create({ email: 'a@example.com', name: 'A', password: PASSWORD });
  await t.rejects(store.create({ email: 'A@EXAMPLE.COM', name: 'B', password: PASSWORD }), new RefrainError('bad_request', 'a user with e-mail a@example.com already exists'));
  t.equal(store.list().length, 1);
});

t.test('disable of an unknown user is a 404', async (t) => {
  const store = openStore(t);
  t.throws(() => store.disable('u_nope'), new RefrainError('not_found', 'no user with id or e-mail u_nope'));
  t.throws(() => store.disable('nobody@example.com'), new RefrainError('not_found', 'no user with id or e-mail nobody@example.com'));
});

t.test('an unknown e-mail costs one scrypt, like a known one', async (t) => {
  const store = openStore(t);
  const started = performance.now();
  t.equal(await store.verifyPassword('nobody@example.com', PASSWORD), undefined);
  // A lookup alone takes microseconds; scrypt with N=2^15 takes tens of milliseconds on any machine.
  t.ok(performance.now() - started > 10, 'scrypt ran');
});
