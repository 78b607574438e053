/**
 * The hand-off floor of bench/fingerprint: a bare uWS app that hands each request's body through the
 * same lane as Refrain's index pool (src/index/service/lane.ts) to worker threads, which hold it for
 * `--spin-us` microseconds of CPU (as Refrain's workers spend on a fingerprint) and answer a fixed
 * 4 KB JSON body. Its main thread's CPU per request is what this machine charges for taking a
 * request, handing it to another thread, being woken for the answer and writing it: the least a
 * front end with this shape can cost here, to read Refrain's front-end figure against.
 *
 *   node dist/bench/http/handoff.js --spin-us 270 [--workers 2]   (prints its port once listening)
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { uws } from '../../src/http/uws.js';
import { createLane, LaneProducer } from '../../src/index/service/lane.js';

const { values } = parseArgs({ options: { 'spin-us': { type: 'string', default: '270' }, workers: { type: 'string' } } });
const workers = Number(values.workers ?? availableParallelism());
const lane = createLane({ producers: 1, slots: 2 ** Math.ceil(Math.log2(Math.max(4, workers * 2))), slotBytes: 64 * 1024 });
const threads = Array.from({ length: workers }, () => new Worker(new URL('./handoff-worker.js', import.meta.url), { workerData: { lane, spinUs: Number(values['spin-us']) } }));
for (const t of threads) t.unref();
const producer = new LaneProducer(lane, 0);
const copy = (bytes: Uint8Array) => Buffer.from(Uint8Array.prototype.slice.call(bytes).buffer);

uws
  .App()
  .any('/*', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    const chunks: Buffer[] = [];
    res.onData((chunk, last) => {
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!last) return;
      const body = Buffer.concat(chunks);
      const answer = producer.submit(Date.now() + 10_000, (slot) => (body.length > slot.length ? -1 : (slot.set(body), body.length)), copy);
      if (!answer) {
        res.writeStatus('503 Service Unavailable').end();
        return;
      }
      void answer.then((bytes) => {
        if (aborted) return;
        res.cork(() => {
          res.writeHeader('content-type', 'application/json');
          res.end(bytes as Buffer);
        });
      });
    });
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) process.exit(1);
    process.stdout.write(`${uws.us_socket_local_port(socket)}\n`);
  });
