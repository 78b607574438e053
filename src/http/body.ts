/**
 * Reading a request body from uWS: each chunk is copied (uWS reuses its memory once the callback
 * returns, docs/design.md §10) into a buffer of its own, and the total is capped (413 past
 * `maxBytes`, without buffering the rest). The caller must have registered `res.onAborted` first.
 */
import type { HttpResponse } from './uws.js';
import { RefrainError } from '../errors.js';

export function readBody(res: HttpResponse, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        done = true;
        reject(new RefrainError('too_large', `the body is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        // One chunk (most bodies) is its own exactly sized buffer: no second copy, and a pool task
        // clones its bytes only (Buffer.concat's small results share an 8 KB pool, cloned whole).
        resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      }
    });
  });
}
