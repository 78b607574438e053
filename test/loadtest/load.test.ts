/**
 * The open loop counts a stall (latency from the intended send time: no coordinated omission), never
 * sends more than its rate, and gives up on what takes too long; the closed loop, by design, does not
 * see the stall. The target is a small HTTP server in another process that stops answering for
 * 500 ms after its 100th request (a busy loop: a GC pause, a blocked event loop).
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { TargetClient, type LoadRequest } from '../../src/loadtest/client.js';
import { closedLoop, openLoop, type RequestSource } from '../../src/loadtest/load.js';
import { Recorder } from '../../src/loadtest/recorder.js';

const SERVER = `
const http = require('node:http');
let n = 0;
const body = '{"message":{"header":{"status_code":200},"body":{}}}';
http.createServer((req, res) => {
  if (req.url.startsWith('/hang')) return; // never answered
  if (++n === Number(process.env.STALL_AT)) { const until = Date.now() + 500; while (Date.now() < until); }
  res.writeHead(200, { 'content-type': 'application/json', 'x-refrain-header-status': '200' });
  res.end(body);
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

async function stallingServer(t: Test, stallAt: number): Promise<URL> {
  const child = spawn(process.execPath, ['-e', SERVER], { env: { ...process.env, STALL_AT: String(stallAt) }, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => child.kill());
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return new URL(`http://127.0.0.1:${line.trim()}`);
}

const source = (path: string): RequestSource => ({ next: (): LoadRequest => ({ method: 'ping', verb: 'GET', path }) });

t.test('open loop: a 500 ms stall shows in p99, counted from the intended send times', async (t) => {
  const target = await stallingServer(t, 100);
  const client = new TargetClient(target, 16, { apikey: 'k' }, 5000);
  t.teardown(() => client.close());
  const recorder = new Recorder(['ping'], performance.now());
  const result = await openLoop(client, source('/ping'), recorder, { rate: 200, durationMs: 2500, timeoutMs: 5000, maxOutstanding: 2000 });
  recorder.close(performance.now());
  const [ping] = recorder.summary();
  t.equal(result.sent, 500, 'exactly rate × duration sent');
  t.equal(ping.requests, 500);
  t.equal(ping.failed, 0);
  // ~100 requests fall due during the 500 ms stall, waiting from 500 ms down to 0: a fifth of them.
  t.ok(ping.latency.p99 >= 400, `p99 ${ping.latency.p99} ms counts the stall`);
  t.ok(ping.latency.p90 >= 100, `p90 ${ping.latency.p90} ms too: a tenth of the requests waited`);
  t.ok(ping.latency.p50 < 100, `p50 ${ping.latency.p50} ms: most did not`);
  t.ok(recorder.series.length >= 2, 'a point per second');
});

t.test('closed loop: the same stall hides in the percentiles (why the open loop exists)', async (t) => {
  const target = await stallingServer(t, 100);
  const client = new TargetClient(target, 2, { apikey: 'k' }, 5000);
  t.teardown(() => client.close());
  const recorder = new Recorder(['ping'], performance.now());
  const result = await closedLoop(client, source('/ping'), recorder, { connections: 2, durationMs: 2500 });
  recorder.close(performance.now());
  const [ping] = recorder.summary();
  t.ok(result.sent > 1000, `${result.sent} sent`);
  t.ok(ping.latency.max >= 400, `max ${ping.latency.max} ms: the stalled requests themselves`);
  t.ok(ping.latency.p99 < 100, `p99 ${ping.latency.p99} ms: only the 2 requests in flight saw it`);
});

t.test('timeouts, and requests beyond the outstanding cap counted as timeouts unsent', async (t) => {
  const target = await stallingServer(t, 0);
  const client = new TargetClient(target, 4, { apikey: 'k' }, 300);
  t.teardown(() => client.close());
  const recorder = new Recorder(['ping'], performance.now());
  const result = await openLoop(client, source('/hang'), recorder, { rate: 20, durationMs: 500, timeoutMs: 300, maxOutstanding: 3 });
  recorder.close(performance.now());
  const [ping] = recorder.summary();
  t.equal(result.sent, 10);
  t.equal(ping.timeouts, 10, 'every request timed out');
  t.equal(ping.failed, 10);
  t.ok(ping.latency.p50 >= 299, `latency ${ping.latency.p50} ms: at least the timeout`);
  t.equal(client.outstanding, 0, 'nothing left outstanding');
});
