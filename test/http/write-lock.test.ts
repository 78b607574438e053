/**
 * Writes on a request path never wait for LMDB's write lock on the event loop (issue 11, item 5).
 * Another process holds the lock (a long synchronous write transaction, as an import's batch):
 * meanwhile work.post and the usage counters' flush wait for it off the event loop, /healthz
 * answers, and both complete once the lock is released.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startTestServer } from '../helpers/server.js';

const HOLDER = path.resolve(import.meta.dirname, '../fixtures/hold-write-lock.ts');
/** How long the other process holds the lock at most: long enough that a blocked event loop shows. */
const HOLD_MAX_MS = 10_000;

const WORK = {
  identifier: 'LOCK-1',
  title: 'Waiting Song',
  isrc: ['GB-AAA-20-00001'],
  owners: { writer: [{ name: 'Ada Quillfeather', perf_ownership_share: 5000 }], publisher: [] },
};

t.test('work.post and counter flushes wait for the write lock without blocking other requests', async (t) => {
  const s = await startTestServer(t);
  const enterprise = s.makeKey({ plan: 'enterprise', label: 'lock test' });
  const store = s.server.works;
  const submit = store.submit.bind(store);
  let entered!: () => void;
  const submitting = new Promise<void>((resolve) => (entered = resolve));
  store.submit = (...args) => {
    entered();
    return submit(...args);
  };

  const release = path.join(s.data, 'release-lock');
  const holder = spawn(process.execPath, [...process.execArgv, HOLDER, s.data, release, String(HOLD_MAX_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => {
    writeFileSync(release, '');
    holder.kill();
  });
  const lines = createInterface({ input: holder.stdout! })[Symbol.asyncIterator]();
  t.equal((await lines.next()).value, 'locked', 'the other process holds the write lock');
  // A request counted against a quota: the usage flush (this one, or the server's own every 2 s)
  // has a count to write while the lock is held.
  t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey: s.keys.free })).status, 200);

  let settled = false;
  const posting = fetch(`${s.url}/ws/1.1/work.post?apikey=${enterprise.key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: WORK }),
  }).finally(() => (settled = true));
  await submitting;
  const flushing = s.server.usage.flush();

  const health = await fetch(`${s.url}/healthz`);
  const answeredAt = Date.now();
  t.equal(health.status, 200, '/healthz answers while work.post waits for the lock');
  t.notOk(settled, 'work.post is still waiting');

  writeFileSync(release, '');
  const released = (await lines.next()).value as string;
  const releasedAt = Number(/^released (\d+)$/.exec(released)?.[1]);
  t.ok(answeredAt < releasedAt, `/healthz answered before the lock was released (${releasedAt - answeredAt} ms before)`);

  const res = await posting;
  const json = (await res.json()) as { message: { body: { title: string } } };
  t.equal(res.status, 200, 'work.post completes once the lock is released');
  t.equal(json.message.body.title, 'Waiting Song');
  t.equal(store.find(enterprise.keyId, 'LOCK-1')?.title, 'Waiting Song', 'the work is stored');
  await flushing;
  t.pass('the usage flush completes too');
});
