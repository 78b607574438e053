/**
 * The index pool's queue (src/index/service/work-queue.ts, issue 11, item 7): a task whose deadline passes
 * while it waits is answered 503 then and never run; one that can no longer finish in time is
 * dropped when dequeued; admission refuses by count, by estimated cost and by estimated wait, each
 * with a 503, a hint and Retry-After.
 */
import t from 'tap';
import { WorkQueue } from '../../../src/index/service/work-queue.js';
import { RefrainError } from '../../../src/errors.js';

/** A task that runs until released. */
function held() {
  let release!: () => void;
  const done = new Promise<string>((resolve) => (release = () => resolve('held done')));
  return { run: () => done, release };
}

/** Runs one task of `kind` that "takes" `ms` on the fake clock, so the queue learns its rate. */
async function teach(q: WorkQueue, clock: { now: number }, kind: string, cost: number, ms: number) {
  await q.submit({ kind, cost, deadline: clock.now + 10_000, run: async () => void (clock.now += ms) });
}

async function refusal(p: Promise<unknown>): Promise<RefrainError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RefrainError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

t.test('a task whose deadline passes while it waits is answered 503 then, and never run', async (t) => {
  const q = new WorkQueue({ slots: 1, maxQueued: 10, maxQueuedCost: 1_000_000, deadlineMs: 100 });
  // The queue's timer does not keep a process alive (a server has its sockets); this test has none.
  const alive = setInterval(() => {}, 1000);
  t.teardown(() => {
    clearInterval(alive);
    q.close();
  });
  const blocker = held();
  const running = q.submit({ kind: 'tracks', cost: 1000, deadline: Date.now() + 100, run: blocker.run });
  let ran = false;
  const sent = Date.now();
  const waiting = q.submit({ kind: 'tracks', cost: 1000, deadline: sent + 100, run: async () => void (ran = true) });
  const e = await refusal(waiting);
  const after = Date.now() - sent;
  t.equal(e.code, 'busy');
  t.match(e.hint, /system busy: the query did not finish within 100 ms/);
  t.same(e.headers, { 'Retry-After': '1' });
  t.ok(after >= 99 && after < 1000, `answered at its deadline (${after} ms), while the worker is still busy`);
  blocker.release();
  t.equal(await running, 'held done', 'the running task finishes');
  t.notOk(ran, 'the expired task never ran');
  t.match(q.stats, { queued: 0, running: 0, dropped: 1, rejectedDeadline: 1, rejectedBusy: 0 });
});

t.test('a task that can no longer finish in time is dropped when dequeued, not run', async (t) => {
  const clock = { now: 1_000_000 };
  const q = new WorkQueue({ slots: 1, maxQueued: 10, maxQueuedCost: 1_000_000, deadlineMs: 2000, clock: () => clock.now });
  t.teardown(() => q.close());
  await teach(q, clock, 'fingerprint', 1000, 500); // 0.5 ms per character
  t.equal(q.estimate('fingerprint', 1000), 500);
  const blocker = held();
  const running = q.submit({ kind: 'tracks', cost: 1, deadline: clock.now + 2000, run: blocker.run });
  let ran = false;
  const waiting = q.submit({ kind: 'fingerprint', cost: 1000, deadline: clock.now + 2000, run: async () => void (ran = true) });
  clock.now += 1600; // 400 ms left: less than the 500 ms it is estimated to take
  blocker.release();
  await running;
  const e = await refusal(waiting);
  t.equal(e.code, 'busy');
  t.match(e.hint, /did not finish within 2000 ms/);
  t.notOk(ran, 'not run');
  t.equal(q.stats.dropped, 1);
});

t.test('admission refuses by count and by estimated cost, at once', async (t) => {
  const q = new WorkQueue({ slots: 1, maxQueued: 2, maxQueuedCost: 30_000, deadlineMs: 2000 });
  t.teardown(() => q.close());
  const blocker = held();
  const running = q.submit({ kind: 'tracks', cost: 1000, deadline: Date.now() + 2000, run: blocker.run });
  const admitted = q.submit({ kind: 'fingerprint', cost: 20_000, deadline: Date.now() + 2000, run: async () => 'first' });

  const byCost = await refusal(q.submit({ kind: 'fingerprint', cost: 20_000, deadline: Date.now() + 2000, run: async () => 'never' }));
  t.equal(byCost.code, 'busy');
  t.match(byCost.hint, /would add up to 40,000 characters of text \(limit 30,000\)/);
  t.same(byCost.headers, { 'Retry-After': '1' });

  const small = q.submit({ kind: 'tracks', cost: 1000, deadline: Date.now() + 2000, run: async () => 'second' });
  const byCount = await refusal(q.submit({ kind: 'tracks', cost: 1000, deadline: Date.now() + 2000, run: async () => 'never' }));
  t.equal(byCount.code, 'busy');
  t.match(byCount.hint, /every index worker is occupied and 2 queries are waiting/);
  t.same(byCount.headers, { 'Retry-After': '1' });
  t.equal(q.stats.rejectedBusy, 2);

  blocker.release();
  t.same(await Promise.all([running, admitted, small]), ['held done', 'first', 'second'], 'the admitted ones run in order');
});

t.test('admission refuses a task whose estimated wait and run would pass the deadline', async (t) => {
  const clock = { now: 1_000_000 };
  const q = new WorkQueue({ slots: 1, maxQueued: 1000, maxQueuedCost: 100_000_000, deadlineMs: 2000, clock: () => clock.now });
  t.teardown(() => q.close());
  await teach(q, clock, 'fingerprint', 1000, 100); // 0.1 ms per character: 150 ms per 1,500-character text
  const blocker = held();
  const running = q.submit({ kind: 'warm', cost: 1, deadline: Infinity, run: blocker.run });
  const accepted: Promise<unknown>[] = [];
  let refused: RefrainError | undefined;
  for (let i = 0; i < 40 && !refused; i++) {
    const before = q.stats.rejectedBusy;
    const p = q.submit({ kind: 'fingerprint', cost: 1500, deadline: clock.now + 2000, run: async () => i });
    if (q.stats.rejectedBusy > before) refused = await refusal(p);
    else accepted.push(p);
  }
  // The 14th would wait 13 × 150 ms and take 150 ms more: past 2,000 ms.
  t.equal(accepted.length, 13, 'thirteen fit in the deadline');
  t.equal(refused?.code, 'busy');
  t.match(refused?.hint, /would wait about 1950 ms for an index worker and take about 150 ms, past the 2000 ms deadline/);
  t.same(refused?.headers, { 'Retry-After': '2' });
  blocker.release();
  await running;
  t.equal((await Promise.allSettled(accepted)).filter((r) => r.status === 'fulfilled').length, 13, 'the admitted ones run');
});

t.test('check() refuses, before any body is read, what submit() would refuse, and admits the rest', async (t) => {
  const q = new WorkQueue({ slots: 1, maxQueued: 10, maxQueuedCost: 30_000, deadlineMs: 2000 });
  t.teardown(() => q.close());
  t.doesNotThrow(() => q.check('fingerprint', 20_000), 'a free worker: admitted');
  const blocker = held();
  const running = q.submit({ kind: 'fingerprint', cost: 20_000, deadline: Date.now() + 2000, run: blocker.run });
  const waiting = q.submit({ kind: 'fingerprint', cost: 20_000, deadline: Date.now() + 2000, run: async () => 'ran' });
  t.doesNotThrow(() => q.check('fingerprint', 5_000), 'within the cost bound: admitted');
  let thrown: unknown;
  try {
    q.check('fingerprint', 20_000);
  } catch (e) {
    thrown = e;
  }
  t.ok(thrown instanceof RefrainError, 'over the cost bound: refused');
  t.equal((thrown as RefrainError).code, 'busy');
  t.match((thrown as RefrainError).hint, /characters of text \(limit 30,000\)/);
  t.equal(q.stats.rejectedBusy, 1, 'counted as a refusal');
  t.equal(q.stats.queued, 1, 'nothing was queued by the checks');
  blocker.release();
  t.equal(await running, 'held done');
  t.equal(await waiting, 'ran');
});
