/**
 * The lane (src/index/service/lane.ts): tasks reach workers through shared memory and each answer
 * comes back to the task that asked, from any number of workers, whatever the interleaving; workers
 * asleep are woken; what does not fit a slot is refused or reported; a worker that never answers
 * costs its task a rejection, not a hang; a server answers alike through the lane or piscina.
 */
import t, { type Test } from 'tap';
import { Worker } from 'node:worker_threads';
import { createLane, LaneProducer, TOO_BIG, type Lane } from '../../src/index/service/lane.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { LYRICS } from '../helpers/fixtures.js';

const WORKER = new URL('../fixtures/lane-worker.ts', import.meta.url);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function start(t: Test, lane: Lane, workers: number): Worker[] {
  const threads = Array.from({ length: workers }, () => new Worker(WORKER, { workerData: lane }));
  t.teardown(() => Promise.all(threads.map((w) => w.terminate())));
  return threads;
}

/** Submits `text` (written as UTF-8) and reads the answer as text; undefined when the lane refused it. */
function ask(producer: LaneProducer, text: string, deadline = Date.now() + 10_000): Promise<string | typeof TOO_BIG> | undefined {
  return producer.submit(
    deadline,
    (slot) => {
      const { read, written } = encoder.encodeInto(text, slot);
      return read < text.length ? -1 : written;
    },
    (answer) => decoder.decode(Uint8Array.prototype.slice.call(answer)),
  );
}

/** Asks every text, waiting for a free slot when none is: the answers in the order asked. */
async function askAll(producer: LaneProducer, texts: string[], inFlight: number): Promise<(string | typeof TOO_BIG)[]> {
  const answers: (string | typeof TOO_BIG)[] = [];
  let next = 0;
  const lane = async () => {
    while (next < texts.length) {
      const i = next++;
      const answer = ask(producer, texts[i]);
      if (!answer) throw new Error(`no free slot for task ${i}`);
      answers[i] = await answer;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return answers;
}

t.test('every answer reaches the task that asked, from every worker', async (t) => {
  const lane = createLane({ producers: 1, slots: 8, slotBytes: 256 });
  const threads = start(t, lane, 3);
  const producer = new LaneProducer(lane, 0);
  const texts = Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? `sleep:1:task ${i}` : `echo:task ${i}`));
  const answers = await askAll(producer, texts, 8);
  t.ok(answers.every((a, i) => typeof a === 'string' && a.startsWith(`task ${i}@`)), 'each answer is its task\'s');
  const by = new Set(answers.map((a) => String(a).split('@')[1]));
  t.same([...by].sort(), threads.map((w) => String(w.threadId)).sort(), 'all three workers answered');
});

t.test('no free slot, or a task too big for one, is refused at once; an answer too big comes back as TOO_BIG', async (t) => {
  const lane = createLane({ producers: 1, slots: 2, slotBytes: 64 });
  start(t, lane, 1);
  const producer = new LaneProducer(lane, 0);
  t.equal(ask(producer, 'echo:' + 'x'.repeat(100)), undefined, 'a request longer than a slot');
  const both = [ask(producer, 'sleep:50:a'), ask(producer, 'sleep:50:b')];
  t.equal(ask(producer, 'echo:c'), undefined, 'both slots in use');
  t.match(await Promise.all(both), [/^a@/, /^b@/]);
  t.equal(await ask(producer, 'big'), TOO_BIG);
  t.match(await ask(producer, 'echo:d'), /^d@/, 'the slots are free again');
});

t.test('workers asleep are woken by the next task', async (t) => {
  const lane = createLane({ producers: 1, slots: 4, slotBytes: 64 });
  start(t, lane, 2);
  const producer = new LaneProducer(lane, 0);
  for (let i = 0; i < 5; i++) {
    // Long enough for both workers to announce their wait and sleep.
    await new Promise((resolve) => setTimeout(resolve, 30));
    t.match(await ask(producer, `echo:${i}`), new RegExp(`^${i}@`));
  }
});

t.test('producers have their own parts: answers never cross', async (t) => {
  const lane = createLane({ producers: 2, slots: 4, slotBytes: 128 });
  start(t, lane, 2);
  const [a, b] = [new LaneProducer(lane, 0), new LaneProducer(lane, 1)];
  const texts = (who: string) => Array.from({ length: 500 }, (_, i) => `echo:${who}${i}`);
  const [fromA, fromB] = await Promise.all([askAll(a, texts('a'), 4), askAll(b, texts('b'), 4)]);
  t.ok(fromA.every((x, i) => String(x).startsWith(`a${i}@`)) && fromB.every((x, i) => String(x).startsWith(`b${i}@`)));
});

t.test('a task its worker never answers is rejected after its deadline, and its slot kept until the worker writes it', async (t) => {
  const lane = createLane({ producers: 1, slots: 2, slotBytes: 64 });
  start(t, lane, 2);
  const producer = new LaneProducer(lane, 0, 100);
  const hung = ask(producer, 'hang', Date.now() + 100);
  await t.rejects(hung!, /did not answer it within 100 ms of its deadline/);
  t.match(await ask(producer, 'echo:after'), /^after@/, 'the other slot still serves');
  const one = ask(producer, 'sleep:30:one');
  t.equal(ask(producer, 'echo:two'), undefined, 'the hung task\'s slot is not reused');
  t.match(await one, /^one@/);
  producer.close();
  t.equal(ask(producer, 'echo:closed'), undefined, 'a closed lane takes no task');
});

t.test('a server answers the same whether its answers fit a lane slot or go through piscina', async (t) => {
  // Slots of 1 KB: a fingerprint's request does not fit one (refused at submission), a search's
  // answer does not (TOO_BIG, run again through piscina's messages); the default server uses the lane.
  const [lane, messages] = await Promise.all([startTestServer(t), startTestServer(t, { server: { laneSlotBytes: 1024 } })]);
  // The share and edit links name each server's own port.
  const body = (text: string) => (JSON.parse(text.replace(/localhost:\d+/g, 'localhost')) as { message: { body: unknown } }).message.body;
  const requests: [string, RequestInit?][] = [
    ['/ws/1.1/track.search?q_track=full&page_size=5'],
    ['/ws/1.1/track.lyrics.fingerprint.post', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: LYRICS } }) }],
    ['/ws/1.1/track.lyrics.fingerprint.post?size=99', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: LYRICS } }) }],
    ['/ws/1.1/artist.search?q_artist=fixtures'],
  ];
  for (const [path, init] of requests) {
    const [a, b] = await Promise.all([lane, messages].map(async (api) => {
      const res = await fetch(`${api.url}${path}${path.includes('?') ? '&' : '?'}apikey=${api.keys.enterprise}`, init);
      return { status: res.status, text: await res.text() };
    }));
    t.equal(a.status, b.status, `${path}: the same status`);
    t.same(body(a.text), body(b.text), `${path}: the same body`);
  }
  const tasks = (api: TestServer) => api.server.index.stats;
  t.ok(tasks(lane).laneTasks >= 4, `the default server used the lane (${tasks(lane).laneTasks} tasks)`);
  t.ok(tasks(messages).messageTasks >= 4, `the small slots sent them through piscina (${tasks(messages).messageTasks} tasks)`);
});
