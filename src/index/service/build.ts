/**
 * `refrain index` (and the server's background rebuilds): the fingerprint part and the text part
 * are built at once, each by one pass over the catalog on its own thread, then written as a new
 * generation and published (src/index/store/layout.ts).
 * One builder at a time per data directory, by a lock file; a build is skipped when the current
 * generation already covers the catalog's latest change.
 *
 * Unfinished generations (`index/<n>.tmp` of a build that was killed) are removed under that lock,
 * before each build and at server start (issue 11, item 6). The lock names its holder's pid and is
 * taken over only from a dead process, so a build running in this process (the server's background
 * rebuild, on a worker thread) or in another process on the same machine keeps its directory; a
 * data directory shared by several machines (network filesystem) is not supported.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { lock, tryLock } from '../../util/lock-file.js';
import { oneShotWorker, siblingModule } from '../../util/one-shot-worker.js';
import { Catalog, everyId } from '../../catalog/store.js';
import type { FingerprintPart, FingerprintPartJob } from '../fingerprint/build.js';
import { TextBuilder } from '../text/build.js';
import { currentGeneration, indexRoot, INDEX_FORMAT, newGenerationDir, publishGeneration, readManifest, removeUnfinishedGenerations, type Manifest } from '../store/layout.js';

export interface BuildReport {
  /** False when the current generation was already up to date. */
  built: boolean;
  dir: string;
  generation: number;
  seconds: number;
  tracks: number;
  lyrics: number;
  bytes: number;
}

export interface BuildOptions {
  /** Build even when the current generation covers the catalog. */
  force?: boolean;
  onProgress?: (tracks: number, total: number) => void;
}

/** Whether the current generation covers the catalog's latest change (and is of this format). */
export function isCurrent(dataDir: string, catalog: Catalog): boolean {
  const dir = currentGeneration(dataDir);
  if (!dir) return false;
  const manifest = readManifest(dir);
  return manifest.format === INDEX_FORMAT && manifest.catalogSeq >= catalog.lastChange();
}

const buildLock = (dataDir: string): string => path.join(indexRoot(dataDir), 'build.lock');

/**
 * Removes the unfinished generations of builds that died, unless a build is running (here or in
 * another process: that one removes them before it starts). Returns the names removed.
 */
export function removeStaleGenerations(dataDir: string): string[] {
  const release = tryLock(buildLock(dataDir));
  if (!release) return [];
  try {
    return removeUnfinishedGenerations(dataDir);
  } finally {
    release();
  }
}

export async function buildIndex(dataDir: string, options: BuildOptions = {}): Promise<BuildReport> {
  const release = await lock(buildLock(dataDir));
  const catalog = Catalog.open(dataDir);
  try {
    removeUnfinishedGenerations(dataDir);
    catalog.refresh();
    const existing = currentGeneration(dataDir);
    if (!options.force && existing && isCurrent(dataDir, catalog)) {
      const m = readManifest(existing);
      return { built: false, dir: existing, generation: m.generation, seconds: 0, tracks: m.parts.text?.tracks ?? 0, lyrics: m.parts.fp?.docs ?? 0, bytes: totalBytes(m) };
    }
    return buildGeneration(dataDir, catalog, options);
  } finally {
    await catalog.close();
    release();
  }
}

const FINGERPRINT_WORKER = siblingModule(import.meta.url, '../fingerprint/build-worker');

/**
 * The two parts are built at once on two threads: the fingerprint part (lyrics keys) by a worker,
 * the text part here. Each reads its own snapshot of the catalog; the manifest records the older
 * one, so a change that fell between them is indexed by the next build.
 */
async function buildGeneration(dataDir: string, catalog: Catalog, options: BuildOptions): Promise<BuildReport> {
  const { generation, tmp } = newGenerationDir(dataDir);
  try {
    return await writeGeneration(dataDir, catalog, options, generation, tmp);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true }); // a failed build leaves nothing behind
    throw e;
  }
}

async function writeGeneration(dataDir: string, catalog: Catalog, options: BuildOptions, generation: number, tmp: string): Promise<BuildReport> {
  const started = performance.now();
  const total = catalog.trackCount();
  // The fingerprint part on a worker thread (its own read snapshot of the catalog).
  const fingerprint = oneShotWorker<FingerprintPart>(FINGERPRINT_WORKER, { dataDir, tmp, tracks: total } satisfies FingerprintPartJob, 'fingerprint build');
  // Observed here so that a failure of the text part first leaves no unhandled rejection.
  fingerprint.result.catch(() => {});
  const catalogSeq = catalog.lastChange();
  const text = new TextBuilder(catalog, path.join(tmp, 'tt-keys.spill'));
  let tracks = 0;
  let tx: ReturnType<TextBuilder['write']>;
  try {
    for (const { value: track } of catalog.tracks.getRange(everyId())) {
      const lyrics = track.has_lyrics ? catalog.getContent('lyrics', track.track_id) : undefined;
      text.addTrack(track, lyrics);
      if (++tracks % 10_000 === 0) options.onProgress?.(tracks, total);
    }
    text.addArtists();
    tx = text.write(tmp);
  } catch (e) {
    await fingerprint.terminate();
    throw e;
  }
  const scanned = performance.now();
  const fp = await fingerprint.result;
  const manifest: Manifest = {
    format: INDEX_FORMAT,
    generation,
    created: new Date().toISOString(),
    catalogSeq: Math.min(catalogSeq, fp.catalogSeq),
    segments: { ...fp.segments, ...tx.segments },
    parts: { fp: fp.part, ...tx.parts },
    stats: {
      textSeconds: (scanned - started) / 1000,
      seconds: (performance.now() - started) / 1000,
      normalizedChars: fp.normalizedChars,
    },
  };
  manifest.stats.bytes = totalBytes(manifest);
  const dir = publishGeneration(dataDir, tmp, manifest);
  options.onProgress?.(tracks, total);
  return {
    built: true, dir, generation, tracks,
    seconds: (performance.now() - started) / 1000,
    lyrics: fp.part.docs,
    bytes: manifest.stats.bytes,
  };
}

const totalBytes = (m: Manifest): number => Object.values(m.segments).reduce((n, s) => n + s.bytes, 0);

