/** A data directory holding a catalog and one index generation built from it, as `refrain import` then `refrain index` leave it. */
import type { Test } from 'tap';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { buildIndex } from '../../src/index/service/build.js';
import { FIXTURE_RECORDS } from './fixtures.js';
import { tempDir, writeJsonl } from './tmp.js';

/** Imports `records` (throwing on any rejected line) into a new data directory, builds the index, returns the directory. */
export async function indexedDataDir(t: Test, records: unknown[] = FIXTURE_RECORDS): Promise<string> {
  const data = tempDir(t);
  const catalog = Catalog.open(data);
  try {
    const report = await importFiles(catalog, [writeJsonl(data, 'records.jsonl', records)]);
    if (report.rejected) throw new Error(`records rejected: ${JSON.stringify(report.rejections)}`);
  } finally {
    await catalog.close();
  }
  await buildIndex(data);
  return data;
}
