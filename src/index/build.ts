/**
 * `refrain index` (and the server's background rebuilds): one pass over the catalog feeds every
 * part of the index, which is then written as a new generation and published (src/index/layout.ts).
 * One builder at a time per data directory, by a lock file; a build is skipped when the current
 * generation already covers the catalog's latest change.
 */
import path from 'node:path';
import { lock } from '../util/lock-file.js';
import { Catalog } from '../catalog/store.js';
import { FingerprintBuilder } from './fingerprint-build.js';
import { TextBuilder } from './text-build.js';
import { normalizeText } from './normalize.js';
import { currentGeneration, indexRoot, INDEX_FORMAT, newGenerationDir, publishGeneration, readManifest, type Manifest } from './layout.js';

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

export async function buildIndex(dataDir: string, options: BuildOptions = {}): Promise<BuildReport> {
  const release = await lock(path.join(indexRoot(dataDir), 'build.lock'));
  const catalog = Catalog.open(dataDir);
  try {
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

function buildGeneration(dataDir: string, catalog: Catalog, options: BuildOptions): BuildReport {
  const started = performance.now();
  const catalogSeq = catalog.lastChange();
  const total = catalog.trackCount();
  const fingerprint = new FingerprintBuilder(total);
  const text = new TextBuilder(catalog);
  let tracks = 0;
  for (const { value: track } of catalog.tracks.getRange({ start: 1, end: 0xffff_ffff })) {
    const lyrics = track.has_lyrics ? catalog.getContent('lyrics', track.track_id) : undefined;
    const normalized = lyrics?.lyrics_body ? normalizeText(lyrics.lyrics_body) : '';
    if (lyrics && !lyrics.instrumental) fingerprint.add(track.track_id, track.commontrack_id, normalized);
    text.addTrack(track, lyrics, normalized);
    if (++tracks % 10_000 === 0) options.onProgress?.(tracks, total);
  }
  text.addArtists();
  const scanned = performance.now();
  const { generation, tmp } = newGenerationDir(dataDir);
  const fp = fingerprint.write(tmp);
  const tx = text.write(tmp);
  const manifest: Manifest = {
    format: INDEX_FORMAT,
    generation,
    created: new Date().toISOString(),
    catalogSeq,
    segments: { ...fp.segments, ...tx.segments },
    parts: { fp: fp.part, ...tx.parts },
    stats: {
      scanSeconds: (scanned - started) / 1000,
      writeSeconds: (performance.now() - scanned) / 1000,
      normalizedChars: fingerprint.normalizedChars,
    },
  };
  manifest.stats.bytes = totalBytes(manifest);
  const dir = publishGeneration(dataDir, tmp, manifest);
  options.onProgress?.(tracks, total);
  return {
    built: true, dir, generation, tracks,
    seconds: (performance.now() - started) / 1000,
    lyrics: fingerprint.docs,
    bytes: manifest.stats.bytes,
  };
}

const totalBytes = (m: Manifest): number => Object.values(m.segments).reduce((n, s) => n + s.bytes, 0);

