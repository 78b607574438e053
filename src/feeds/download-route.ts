/**
 * `GET|HEAD /feeds/<file>?expires=…&signature=…`: a feed file, streamed from disk with uWS
 * backpressure (`tryEnd` / `onWritable`), so a multi-gigabyte full feed never sits in memory and a
 * slow client only slows its own download. 403 for a missing, wrong or expired signature; 404 for a
 * feed that was pruned. `ETag` is the file's SHA-256 (hex) and `Repr-Digest` (RFC 9530) the same
 * digest, so a client verifies what it received; `Content-Length` is sent on GET and HEAD.
 */
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { pathAndQuery, type HttpRequest, type HttpResponse } from '../http/uws.js';
import { STATUS_LINE } from '../http/status.js';
import type { FeedSigner } from './sign.js';
import type { FeedStore } from './store.js';

export interface DownloadDeps {
  dir: string;
  store: FeedStore;
  signer: FeedSigner;
  clock: () => number;
  logger: Logger;
}

/** Bytes read from disk at a time. */
const READ_CHUNK = 256 * 1024;

function refuse(res: HttpResponse, status: number, message: string): void {
  res.writeStatus(STATUS_LINE[status]);
  res.writeHeader('content-type', 'text/plain; charset=utf-8');
  res.writeHeader('cache-control', 'no-store');
  res.end(`${message}\n`);
}

export function feedDownloadRoute(deps: DownloadDeps) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const head = req.getMethod() === 'head';
    const [urlPath, query] = pathAndQuery(req);
    const params = new URLSearchParams(query);
    const ifNoneMatch = req.getHeader('if-none-match');
    const verdict = deps.signer.verify(urlPath, params.get('expires'), params.get('signature'), deps.clock());
    if (verdict === 'expired') return refuse(res, 403, 'this download URL has expired: list the feeds again (tracks.dump.get)');
    if (verdict !== 'ok') return refuse(res, 403, 'invalid download URL signature');
    const name = urlPath.slice(urlPath.lastIndexOf('/') + 1);
    let meta = deps.store.byFile(name);
    if (!meta) {
      deps.store.refresh(); // built by a worker or another process since this thread last looked
      meta = deps.store.byFile(name);
    }
    const file = path.join(deps.dir, name);
    let size: number;
    try {
      if (!meta) throw new Error('not listed');
      size = statSync(file).size;
    } catch {
      return refuse(res, 404, 'this feed was pruned: list the feeds again (tracks.dump.get)');
    }
    const etag = `"${meta.sha256}"`;
    const headers = (status: number) => {
      res.writeStatus(STATUS_LINE[status]);
      res.writeHeader('etag', etag);
      res.writeHeader('repr-digest', `sha-256=:${Buffer.from(meta.sha256, 'hex').toString('base64')}:`);
      res.writeHeader('cache-control', 'private, max-age=86400, immutable');
    };
    if (ifNoneMatch === etag) {
      headers(304);
      return void res.endWithoutBody();
    }
    headers(200);
    res.writeHeader('content-type', 'application/gzip');
    res.writeHeader('content-disposition', `attachment; filename="${name}"`);
    if (head) {
      // endWithoutBody(length) aborts the process in this uWS build (src/http/respond.ts): the
      // length is written as a header and the response ended without one.
      res.writeHeader('content-length', String(size));
      return void res.endWithoutBody();
    }
    stream(res, file, size, deps.logger);
  };
}

/** Send `size` bytes of `file` as the body, pausing the read while the socket is full. */
function stream(res: HttpResponse, file: string, size: number, logger: Logger): void {
  const input = createReadStream(file, { highWaterMark: READ_CHUNK, end: size - 1 });
  let finished = false;
  /** A chunk the socket did not take whole yet: the read is paused until it drains. */
  let pending = false;
  const stop = () => {
    finished = true;
    input.destroy();
  };
  res.onAborted(stop);
  input.on('data', (data) => {
    if (finished) return;
    const chunk = data as Buffer;
    res.cork(() => {
      const offset = res.getWriteOffset();
      const [ok, done] = res.tryEnd(chunk, size);
      if (done) return stop();
      if (ok) return;
      pending = true;
      input.pause();
      res.onWritable((writable) => {
        const [retried, complete] = res.tryEnd(chunk.subarray(writable - offset), size);
        if (complete) stop();
        else if (retried) {
          pending = false;
          input.resume();
        }
        return retried;
      });
    });
  });
  const cut = (err?: Error) => {
    if (finished || (!err && pending)) return;
    // The file ended early or could not be read: the client must not take a short body for a whole one.
    if (err) logger.warn({ err, file }, 'reading a feed file failed');
    finished = true;
    res.cork(() => res.close());
  };
  input.on('error', cut);
  input.on('end', () => cut());
}
