/**
 * The index from another thread (src/index/service/remote.ts): a RemoteIndex in a worker thread gets
 * byte for byte what the owner's IndexService answers, and its fingerprint pre-check refuses with
 * the owner's queue's rule and words, counted in the owner's stats.
 */
import t from 'tap';
import { MessageChannel, Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { startTestServer } from '../helpers/server.js';
import { LYRICS } from '../helpers/fixtures.js';
import { serveIndex } from '../../src/index/service/remote.js';
import { POOL_WORKER } from '../../src/api/route.js';
import type { PoolAnswer, PoolCall } from '../../src/api/pool-worker.js';
import { RefrainError } from '../../src/errors.js';
import type { CallKind } from '../../src/index/service/pool.js';

const REMOTE = new URL('../fixtures/remote-index.ts', import.meta.url);
const SLEEP = new URL('../fixtures/sleep-task.mjs', import.meta.url);

t.test('a RemoteIndex answers as the IndexService does, and pre-checks against its queue', async (t) => {
  const api = await startTestServer(t, { flags: ['--index-threads', '1', '--index-queue', '1'] });
  const index = api.server.index;
  const channel = new MessageChannel();
  const data = serveIndex(index, channel.port1, channel.port2);
  const worker = new Worker(REMOTE, { workerData: data, transferList: [channel.port2] });
  t.teardown(async () => {
    worker.postMessage(null);
    await once(worker, 'exit');
    channel.port1.close();
  });
  const ask = async (message: unknown) => (await once(worker, 'message'))[0] as { body?: Uint8Array; error?: { code: string; hint: string; headers?: Record<string, string> } };
  const remote = (message: unknown) => {
    worker.postMessage(message);
    return ask(message);
  };

  const caller = { key_id: 'k_remote', plan: 'enterprise', quota: 0, rate: 0, country: '', label: '', created: '2025-01-01T00:00:00Z', revoked: null };
  const call = (method: string, query: Record<string, string>, body?: object): PoolCall => ({
    method, caller, country: '', now: Date.UTC(2025, 2, 1, 12), baseUrl: api.url, maxFingerprintChars: 20_000,
    input: { query, ...(body && { body: { bytes: Buffer.from(JSON.stringify(body)), contentType: 'application/json' } }) },
  } as PoolCall);
  const cases: [string, CallKind, PoolCall][] = [
    ['fingerprint', { kind: 'fingerprint', chars: LYRICS.length }, call('track.lyrics.fingerprint.post', {}, { data: { text: LYRICS } })],
    ['track.search', { kind: 'tracks' }, call('track.search', { q_track: 'full song' })],
    ['a bad parameter', { kind: 'fingerprint', chars: 5 }, call('track.lyrics.fingerprint.post', { size: '99' }, { data: { text: LYRICS } })],
  ];
  for (const [name, kind, payload] of cases) {
    const own: { body?: Buffer; error?: object } = await index.call(POOL_WORKER, kind, payload).then(
      (a) => ({ body: Buffer.from((a as PoolAnswer).body) }),
      (e: RefrainError) => ({ error: { code: e.code, hint: e.hint, headers: e.headers } }),
    );
    const theirs = await remote({ op: 'call', module: POOL_WORKER.href, kind, payload });
    if (own.body) t.ok(own.body.equals(Buffer.from(theirs.body!)), `${name}: the same bytes (${own.body.length})`);
    else t.same(theirs.error, own.error, `${name}: the same error`);
  }

  // One task running and one waiting fill a queue of one: a fingerprint is refused before its body is read.
  const before = index.stats.rejectedBusy;
  const running = [index.call(SLEEP, { kind: 'fingerprint', chars: 10 }, { ms: 600 }), index.call(SLEEP, { kind: 'fingerprint', chars: 10 }, { ms: 600 })];
  let ownRefusal: RefrainError | undefined;
  try {
    index.admitFingerprint(100);
  } catch (e) {
    ownRefusal = e as RefrainError;
  }
  t.equal(ownRefusal?.code, 'busy', 'the owner refuses');
  const refused = await remote({ op: 'admit', chars: 100 });
  t.same(refused.error, { code: 'busy', hint: ownRefusal?.hint, headers: ownRefusal?.headers }, 'the other thread refuses alike, without a hop');
  t.match(refused.error?.hint, /every index worker is occupied and 1 query is waiting/);
  t.equal(index.stats.rejectedBusy, before + 2, 'both refusals counted in the owner\'s stats');
  await Promise.all(running);
  t.same(await remote({ op: 'admit', chars: 100 }), {}, 'admitted once the queue is empty again');
});
