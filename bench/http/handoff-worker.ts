/** A pool worker of bench/http/handoff.ts: holds each task `spinUs` microseconds, then answers a fixed 4 KB JSON body. */
import { nameThisThread } from '../../src/util/thread-name.js';

// Named as Refrain's index workers: the bench counts their CPU as the pool's.
nameThisThread('refrain-index');
const answer = new TextEncoder().encode(JSON.stringify({ message: { header: { status_code: 200 }, body: { track_list: 'x'.repeat(4000) } } }));

export default function hold({ spinUs }: { body: Uint8Array; spinUs: number }): Uint8Array {
  const until = process.hrtime.bigint() + BigInt(Math.round(spinUs * 1000));
  while (process.hrtime.bigint() < until);
  return answer;
}
