/**
 * The catalogs the benches run on: generated and imported when missing, and an API key on them.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import { importFiles } from '../../src/catalog/import.js';
import { Catalog } from '../../src/catalog/store.js';
import { writeCatalog } from '../../src/generate/write.js';

/**
 * Make the catalog in `data` if it holds no tracks: import `file`, which holds `tracks` generated
 * tracks of `seed`, generating it first unless an earlier run left it.
 */
export async function makeCatalogIfMissing(data: string, { tracks, seed, file }: { tracks: number; seed: number; file: string }): Promise<void> {
  mkdirSync(data, { recursive: true });
  const catalog = Catalog.open(data);
  try {
    if (catalog.trackCount() > 0) return;
    if (!existsSync(file)) {
      console.error(`generating ${tracks} tracks…`);
      mkdirSync(path.dirname(file), { recursive: true });
      await writeCatalog({ tracks, seed }, file);
    }
    console.error('importing…');
    const report = await importFiles(catalog, [file], { batch: 5000 });
    console.error(`imported ${report.imported} records at ${report.tracksPerSecond} tracks/s`);
  } finally {
    await catalog.close();
  }
}

/** A new key for a bench's requests: enterprise plan, no quota, labelled with the bench. */
export function benchKey(catalog: Catalog, label: string): string {
  return new KeyStore(catalog.root).create({ plan: 'enterprise', quota: 0, label }).key;
}
