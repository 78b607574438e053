/**
 * The hand-off floor of bench/fingerprint: a bare uWS app that hands each request's body to a
 * piscina pool configured as Refrain's index pool (a fixed pool, one worker per core, `atomics:
 * 'sync'`), whose workers hold it for `--spin-us` microseconds (as Refrain's workers spend on a
 * fingerprint) and answer a fixed 4 KB JSON body. Its main thread's CPU per request is what this
 * machine charges for taking a request, handing it to a pool worker, being woken for the answer
 * and writing it: the least a front end of Refrain's shape can cost here, to read Refrain's
 * front-end figure against.
 *
 *   node dist/bench/http/handoff.js --spin-us 270 [--workers N]   (prints its port once listening)
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import { uws } from '../../src/http/uws.js';

const { values } = parseArgs({ options: { 'spin-us': { type: 'string', default: '270' }, workers: { type: 'string' } } });
const threads = Number(values.workers ?? availableParallelism());
const pool = new Piscina<{ body: Uint8Array; spinUs: number }, Uint8Array>({
  filename: new URL('./handoff-worker.js', import.meta.url).href,
  minThreads: threads,
  maxThreads: threads,
  idleTimeout: Infinity,
  atomics: 'sync',
});
const spinUs = Number(values['spin-us']);

uws
  .App()
  .any('/*', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    const chunks: Buffer[] = [];
    res.onData((chunk, last) => {
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!last) return;
      void pool.run({ body: Buffer.concat(chunks), spinUs }).then((answer) => {
        if (aborted) return;
        res.cork(() => {
          res.writeHeader('content-type', 'application/json');
          res.end(answer);
        });
      });
    });
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) process.exit(1);
    process.stdout.write(`${uws.us_socket_local_port(socket)}\n`);
  });
