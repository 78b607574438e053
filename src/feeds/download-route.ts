/**
 * `GET|HEAD /feeds/<file>?expires=…&signature=…`: a feed file, streamed from disk with uWS
 * backpressure (`tryEnd` / `onWritable`), so a multi-gigabyte full feed never sits in memory and a
 * slow client only slows its own download. 403 for a missing, wrong or expired signature; 404 for a
 * feed that was pruned. `ETag` is the file's SHA-256 (hex) and `Repr-Digest` (RFC 9530) the same
 * digest, so a client verifies what it received; `Content-Length` is sent on GET and HEAD.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { route, type Incoming, type Outgoing } from '../http/route.js';
import type { HttpRequest, HttpResponse } from '../http/uws.js';
import type { FeedSigner } from './sign.js';
import type { FeedStore } from './store.js';

export interface DownloadDeps {
  dir: string;
  store: FeedStore;
  signer: FeedSigner;
  clock: () => number;
  logger: Logger;
}

const refuse = (status: number, message: string): Outgoing => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body: `${message}\n`,
});

export function feedDownloadRoute(deps: DownloadDeps): (res: HttpResponse, req: HttpRequest) => void {
  return route((incoming) => download(deps, incoming), {
    logger: deps.logger,
    fail: (err) => {
      deps.logger.error({ err }, 'answering a feed download failed');
      return refuse(500, 'internal error');
    },
  });
}

function download(deps: DownloadDeps, incoming: Incoming): Outgoing {
  const params = new URLSearchParams(incoming.query);
  const verdict = deps.signer.verify(incoming.path, params.get('expires'), params.get('signature'), deps.clock());
  if (verdict === 'expired') return refuse(403, 'this download URL has expired: list the feeds again (tracks.dump.get)');
  if (verdict !== 'ok') return refuse(403, 'invalid download URL signature');
  const name = incoming.path.slice(incoming.path.lastIndexOf('/') + 1);
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
    return refuse(404, 'this feed was pruned: list the feeds again (tracks.dump.get)');
  }
  const etag = `"${meta.sha256}"`;
  const headers = {
    etag,
    'repr-digest': `sha-256=:${Buffer.from(meta.sha256, 'hex').toString('base64')}:`,
    'cache-control': 'private, max-age=86400, immutable',
  };
  if (incoming.ifNoneMatch === etag) return { status: 304, headers };
  return {
    status: 200,
    headers: { ...headers, 'content-type': 'application/gzip', 'content-disposition': `attachment; filename="${name}"` },
    file: { path: file, size },
  };
}
