/**
 * The usage table shared by threads (src/auth/usage.ts): two threads admitting one key at once
 * count against one quota and one rate, exactly, and the owner's flush writes the total.
 */
import t, { type Test } from 'tap';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { Catalog } from '../../src/catalog/store.js';
import { Usage, UsageTable } from '../../src/auth/usage.js';
import type { KeyRecord } from '../../src/auth/keys.js';
import { tempDir } from '../helpers/tmp.js';

const NOON = Date.UTC(2025, 2, 1, 12);
const HAMMER = new URL('../fixtures/usage-hammer.ts', import.meta.url);

const key = (fields: Partial<KeyRecord>): KeyRecord => ({
  key_id: 'k_0123456789ab', plan: 'basic', quota: 0, rate: 0, country: '', label: '', created: '2025-01-01T00:00:00Z', revoked: null, ...fields,
});

interface Tally {
  admitted: number;
  refused: Record<string, number>;
}

/** `threads` workers admitting `k` `times` times each on `table`, at the same time. */
async function hammer(table: UsageTable, dataDir: string, k: KeyRecord, threads: number, times: number): Promise<Tally[]> {
  const workers = Array.from({ length: threads }, () => new Worker(HAMMER, { workerData: { table: table.buffer, dataDir, key: k, times, now: NOON } }));
  return Promise.all(workers.map(async (w) => (await once(w, 'message'))[0] as Tally));
}

/** A data directory with its catalog database open (the threads open it too), closed at the end. */
function openData(t: Test): { dir: string; catalog: Catalog } {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  return { dir, catalog };
}

t.test('two threads admitting one key share its daily quota exactly', async (t) => {
  const { dir, catalog } = openData(t);
  const table = UsageTable.create(1024);
  const k = key({ quota: 5_000 });
  const tallies = await hammer(table, dir, k, 2, 10_000);
  t.equal(tallies.reduce((n, x) => n + x.admitted, 0), 5_000, 'exactly the quota admitted in all');
  t.equal(tallies.reduce((n, x) => n + (x.refused.quota_exceeded ?? 0), 0), 15_000, 'the rest refused 402');
  const usage = new Usage(catalog.root, table);
  t.equal(usage.today(k.key_id, NOON), 5_000, 'today() reads the shared count');
  await usage.flush();
  t.equal(new Usage(catalog.root).today(k.key_id, NOON), 5_000, 'the owner flushed the total to LMDB');
});

t.test('two threads admitting one key share its rate exactly', async (t) => {
  const { dir } = openData(t);
  const table = UsageTable.create(1024);
  const tallies = await hammer(table, dir, key({ rate: 100 }), 2, 5_000);
  t.equal(tallies.reduce((n, x) => n + x.admitted, 0), 100, 'a burst of `rate`, at one instant, in all');
  t.equal(tallies.reduce((n, x) => n + (x.refused.rate_limited ?? 0), 0), 9_900);
});

t.test('every key is found again by another view, whatever its hash', async (t) => {
  const { catalog } = openData(t);
  const table = UsageTable.create(1024);
  const usage = new Usage(catalog.root, table);
  const ids = Array.from({ length: 200 }, (_, i) => `k_${i.toString(16).padStart(12, '0')}`);
  for (const id of ids) usage.admit(key({ key_id: id, quota: 10 }), NOON);
  for (const id of ids) usage.admit(key({ key_id: id, quota: 10 }), NOON);
  const other = new Usage(catalog.root, UsageTable.over(table.buffer));
  t.same(ids.filter((id) => other.today(id, NOON) !== 2), [], 'each counted twice, in one slot');
  t.equal([...table.claimed()].length, 200, 'one slot per key');
});

t.test('a table refuses a key once every slot is taken, and keys are found again by any view', async (t) => {
  const { catalog } = openData(t);
  const table = UsageTable.create(4);
  const usage = new Usage(catalog.root, table);
  for (let i = 0; i < 4; i++) usage.admit(key({ key_id: `k_${i}`, quota: 10 }), NOON);
  t.throws(() => usage.admit(key({ key_id: 'k_4', quota: 10 }), NOON), { code: 'busy', message: /usage table is full \(4 keys since start\)/ });
  const other = new Usage(catalog.root, UsageTable.over(table.buffer));
  t.equal(other.today('k_2', NOON), 1, 'another view finds the slot');
  t.same([...table.claimed()].map(([, id]) => id).sort(), ['k_0', 'k_1', 'k_2', 'k_3']);
});
