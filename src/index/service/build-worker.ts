/** Worker thread that builds an index generation for a running server (service/pool.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { buildIndex } from './build.js';
import { nameThisThread } from '../../util/thread-name.js';

nameThisThread('refrain-build');

const { dataDir } = workerData as { dataDir: string };
const report = await buildIndex(dataDir);
parentPort?.postMessage(report);
