/** A worker of bench/http/handoff.ts: holds each task for `spinUs` microseconds of CPU, then answers a fixed 4 KB JSON body. */
import { workerData } from 'node:worker_threads';
import { serveLane, type Lane } from '../../src/index/service/lane.js';

const { lane, spinUs } = workerData as { lane: Lane; spinUs: number };
const answer = Buffer.from(JSON.stringify({ message: { header: { status_code: 200 }, body: { track_list: 'x'.repeat(4000) } } }));

serveLane(lane, (_request, slot) => {
  const until = process.hrtime.bigint() + BigInt(spinUs * 1000);
  while (process.hrtime.bigint() < until);
  slot.set(answer);
  return answer.length;
});
// The lane's wait does not keep the thread alive.
setInterval(() => undefined, 1 << 30);
