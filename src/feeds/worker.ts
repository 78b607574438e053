/**
 * The thread that writes a feed for a running server (schedule.ts): reading and serializing a
 * large catalog takes minutes of CPU, which must not hold up requests. The server holds the lock
 * and records the returned metadata; this thread only reads LMDB and writes the file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Catalog } from '../catalog/store.js';
import { writeFeed, type BuildRequest } from './build.js';
import { nameThisThread } from '../util/thread-name.js';

nameThisThread('refrain-feeds');

const { dataDir, request } = workerData as { dataDir: string; request: BuildRequest };
const catalog = Catalog.open(dataDir);
try {
  parentPort!.postMessage((await writeFeed(dataDir, catalog, request)) ?? null);
} finally {
  await catalog.close();
}
