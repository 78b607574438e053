/**
 * Per-key admission (src/auth/usage.ts): the daily quota (402), renewed at 00:00 UTC by the clock the
 * caller passes; the per-minute rate limit (429 with Retry-After); counts that survive a restart once
 * flushed.
 */
import t, { type Test } from 'tap';
import { Catalog } from '../../src/catalog/store.js';
import { Usage } from '../../src/auth/usage.js';
import type { KeyRecord } from '../../src/auth/keys.js';
import { tempDir } from '../helpers/tmp.js';
import { refusal } from '../helpers/refusal.js';

const NOON = Date.UTC(2025, 2, 1, 12);
const MIDNIGHT = Date.UTC(2025, 2, 2);

const key = (fields: Partial<KeyRecord>): KeyRecord => ({
  key_id: 'k_1', plan: 'basic', quota: 0, rate: 0, country: '', label: '', created: '2025-01-01T00:00:00Z', revoked: null, ...fields,
});

/** A Usage over the catalog database of `dir`, closed when the test ends unless closed before. */
function openUsage(t: Test, dir: string): { usage: Usage; close: () => Promise<void> } {
  const catalog = Catalog.open(dir);
  let closed = false;
  const close = async () => {
    if (!closed) await catalog.close();
    closed = true;
  };
  t.teardown(close);
  return { usage: new Usage(catalog.root), close };
}

t.test('the daily quota admits `quota` requests per key, then 402 with a hint; a refusal is not counted', async (t) => {
  const { usage } = openUsage(t, tempDir(t));
  const k = key({ quota: 3 });
  t.same([0, 1, 2].map((i) => usage.admit(k, NOON + i)), [2, 1, 0], 'what is left after each (x-refrain-quota-remaining)');
  t.equal(usage.today('k_1', NOON), 3);
  const e = refusal(() => usage.admit(k, NOON + 10));
  t.equal(e.code, 'quota_exceeded');
  t.equal(e.hint, 'daily quota of 3 requests reached; it renews at 00:00 UTC');
  t.same(e.headers, { 'x-refrain-quota-remaining': '0' }, 'no Retry-After on a spent quota: it renews at midnight, not soon');
  t.equal(usage.admit(key({ quota: 0 }), NOON), undefined, 'no quota, nothing to say');
  t.equal(usage.today('k_1', NOON), 3, 'the refused request is not counted');
  usage.admit(key({ key_id: 'k_2', quota: 3 }), NOON + 11);
  t.equal(usage.today('k_2', NOON), 1, 'another key has its own quota');
});

t.test('the quota renews at 00:00 UTC by the clock the caller passes', async (t) => {
  const { usage } = openUsage(t, tempDir(t));
  const k = key({ quota: 2 });
  usage.admit(k, MIDNIGHT - 60_000);
  usage.admit(k, MIDNIGHT - 2);
  t.equal(refusal(() => usage.admit(k, MIDNIGHT - 1)).code, 'quota_exceeded', 'still spent at 23:59:59.999');
  usage.admit(k, MIDNIGHT);
  t.equal(usage.today('k_1', MIDNIGHT), 1, 'a new day starts from zero');
  usage.admit(k, MIDNIGHT + 1);
  t.equal(refusal(() => usage.admit(k, MIDNIGHT + 2)).code, 'quota_exceeded', 'and has the same quota');
});

t.test('a request stamped just before midnight that runs after the new day began counts in the new day', async (t) => {
  const { usage } = openUsage(t, tempDir(t));
  const k = key({ quota: 5 });
  usage.admit(k, MIDNIGHT); // another thread moved the key to the new day
  usage.admit(k, MIDNIGHT - 1); // stamped at 23:59:59.999, counted after
  t.equal(usage.today('k_1', MIDNIGHT), 2, 'both count in the new day; its count is not lost');
});

t.test('quota 0 and rate 0 are unlimited', async (t) => {
  const { usage } = openUsage(t, tempDir(t));
  const k = key({ quota: 0, rate: 0 });
  t.doesNotThrow(() => {
    for (let i = 0; i < 5000; i++) usage.admit(k, NOON);
  });
});

t.test('the rate limit: a burst of `rate`, then 429 with Retry-After until a token is back', async (t) => {
  const { usage } = openUsage(t, tempDir(t));
  const k = key({ rate: 6 }); // one token every 10 s
  for (let i = 0; i < 6; i++) usage.admit(k, NOON);
  const e = refusal(() => usage.admit(k, NOON));
  t.equal(e.code, 'rate_limited');
  t.equal(e.hint, 'rate limit of 6 requests per minute exceeded; retry in 10 s');
  t.same(e.headers, { 'Retry-After': '10' });
  t.same(refusal(() => usage.admit(k, NOON + 4000)).headers, { 'Retry-After': '6' }, 'the wait shrinks as the token refills');
  t.same(refusal(() => usage.admit(k, NOON + 9900)).headers, { 'Retry-After': '1' }, 'never 0');
  usage.admit(k, NOON + 10_100);
  t.equal(refusal(() => usage.admit(k, NOON + 10_100)).code, 'rate_limited', 'one token back, one request');
});

t.test('an idle key saves up at most `rate` tokens', async (t) => {
  const { usage } = openUsage(t, tempDir(t));
  const k = key({ rate: 3 });
  for (let i = 0; i < 3; i++) usage.admit(k, NOON);
  const later = NOON + 3_600_000;
  for (let i = 0; i < 3; i++) usage.admit(k, later);
  t.equal(refusal(() => usage.admit(k, later)).code, 'rate_limited', 'an hour idle buys a burst of 3, not 180');
});

t.test('rate limits are per key; a request refused by the rate is not counted against the quota', async (t) => {
  const { usage } = openUsage(t, tempDir(t));
  const k1 = key({ rate: 1, quota: 10 });
  usage.admit(k1, NOON);
  t.equal(refusal(() => usage.admit(k1, NOON)).code, 'rate_limited');
  t.equal(usage.today('k_1', NOON), 1);
  t.doesNotThrow(() => usage.admit(key({ key_id: 'k_2', rate: 1 }), NOON), 'another key has its own bucket');
});

t.test('flushed counts survive a restart, so it hands out no fresh quota; unflushed ones do not', async (t) => {
  const dir = tempDir(t);
  const k = key({ quota: 5 });
  const first = openUsage(t, dir);
  await first.usage.flush(); // nothing to write yet
  for (let i = 0; i < 3; i++) first.usage.admit(k, NOON);
  await first.usage.flush();
  await first.close();

  const second = openUsage(t, dir);
  t.equal(second.usage.today('k_1', NOON), 3, 'read back after a restart');
  second.usage.admit(k, NOON);
  second.usage.admit(k, NOON);
  t.equal(refusal(() => second.usage.admit(k, NOON)).code, 'quota_exceeded', 'the restart did not renew the quota');
  await second.close();

  const third = openUsage(t, dir);
  t.equal(third.usage.today('k_1', NOON), 3, 'admit counts in memory: what was not flushed is lost with the process');
  t.equal(third.usage.today('k_1', MIDNIGHT), 0, 'a stored count is for its own day only');
});
