/**
 * The guard refuses strings that no key can be before any lookup or cache, and its cache of unknown
 * keys stays within its bounds in entries and in bytes whatever the flood (issue 11, item 4).
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { Guard, UNKNOWN_ENTRY_OVERHEAD, UnknownKeys } from '../../src/api/guard.js';
import { isKeyShaped, KEY_SHAPE_HINT, type KeyRecord, type KeyStore } from '../../src/auth/keys.js';
import { refusal } from '../helpers/refusal.js';
import { Epochs, KEYS } from '../../src/util/epochs.js';

const RECORD: KeyRecord = { key_id: 'k_1', plan: 'free', quota: 0, rate: 0, country: '', label: '', created: '2024-01-01T00:00:00Z', revoked: null };
const GOOD = 'a'.repeat(32);

/** A key store holding GOOD only, counting its lookups. */
function fakeStore() {
  const store = {
    lookups: 0,
    lookup(key: string) {
      store.lookups++;
      return key === GOOD ? RECORD : undefined;
    },
    version: () => 0,
  };
  return store;
}

t.test('key shape: 32 characters 0-9 a-f, as keys create makes them', async (t) => {
  t.ok(isKeyShaped(randomBytes(16).toString('hex')));
  for (const bad of ['', 'f'.repeat(31), 'f'.repeat(33), 'F'.repeat(32), 'g'.repeat(32), `${'f'.repeat(31)}\n`, `\uFEFF${'f'.repeat(31)}`, 'f'.repeat(60_000)]) {
    t.notOk(isKeyShaped(bad), JSON.stringify(bad.slice(0, 40)));
  }
});

t.test('a malformed or overlong key is refused with 401 before any lookup or cache', async (t) => {
  const store = fakeStore();
  const guard = new Guard(store as unknown as KeyStore, () => {}, new Epochs().watch(KEYS), undefined, { unknownKeyEntries: 1000, unknownKeyBytes: 1 << 20 });
  for (const bad of ['x'.repeat(60 * 1024), 'nope', 'A'.repeat(32), `${GOOD} `]) {
    const e = refusal(() => guard.authenticate(bad, ''));
    t.equal(e.code, 'unauthorized');
    t.equal(e.message, KEY_SHAPE_HINT);
    t.match(e.message, /32 characters 0-9 and a-f/);
  }
  t.equal(store.lookups, 0, 'the key store was never read');
  t.equal(guard.unknown.size, 0, 'nothing entered the cache');
  t.equal(guard.unknown.bytes, 0);

  t.equal(guard.authenticate(GOOD, ''), RECORD, 'a real key still works');
  const unknown = 'b'.repeat(32);
  t.match(refusal(() => guard.authenticate(unknown, '')), { code: 'unauthorized', message: 'invalid or revoked apikey' });
  t.match(refusal(() => guard.authenticate(unknown, '')), { code: 'unauthorized', message: 'invalid or revoked apikey' });
  t.equal(store.lookups, 2, 'the real key and the unknown one were each read once');
  t.equal(guard.unknown.size, 1);
});

t.test('the unknown-key cache stays under its byte and entry bounds', async (t) => {
  const store = fakeStore();
  const bytes = 64 * 1024;
  const guard = new Guard(store as unknown as KeyStore, () => {}, new Epochs().watch(KEYS), undefined, { unknownKeyEntries: 1_000_000, unknownKeyBytes: bytes });
  let maxBytes = 0;
  let refused = 0;
  for (let i = 0; i < 20_000; i++) {
    if (refusal(() => guard.authenticate(randomBytes(16).toString('hex'), '')).code === 'unauthorized') refused++;
    maxBytes = Math.max(maxBytes, guard.unknown.bytes);
  }
  t.equal(refused, 20_000, 'every unknown key refused with 401');
  t.ok(maxBytes <= bytes, `at most ${bytes} bytes held (${maxBytes})`);
  t.equal(guard.unknown.size, Math.floor(bytes / (32 + UNKNOWN_ENTRY_OVERHEAD)), 'full, and no more');

  const byCount = new UnknownKeys({ unknownKeyEntries: 100, unknownKeyBytes: 1 << 30 });
  const first = randomBytes(16).toString('hex');
  byCount.add(first);
  for (let i = 0; i < 5000; i++) byCount.add(randomBytes(16).toString('hex'));
  t.equal(byCount.size, 100, 'at most 100 entries');
  t.notOk(byCount.has(first), 'the oldest went first');
  t.equal(byCount.bytes, 100 * (32 + UNKNOWN_ENTRY_OVERHEAD));

  const none = new UnknownKeys({ unknownKeyEntries: 0, unknownKeyBytes: 1 << 20 });
  none.add(first);
  t.equal(none.size, 0, '0 turns the cache off');
});
