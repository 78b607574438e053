/**
 * The fingerprint part of an index build, on a thread of its own (build.ts): it reads the lyrics,
 * normalises them, hashes their keys and writes the fp segments into the generation being built,
 * while the building thread does the text part. Its answer is a FingerprintPart.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Catalog } from '../../catalog/store.js';
import { buildFingerprintPart, type FingerprintPartJob } from './build.js';
import { nameThisThread } from '../../util/thread-name.js';

nameThisThread('refrain-build');

const job = workerData as FingerprintPartJob;
const catalog = Catalog.open(job.dataDir);
try {
  parentPort!.postMessage(buildFingerprintPart(catalog, job));
} finally {
  await catalog.close();
}
