/**
 * Apply a few import records straight through the catalog writer (what `refrain import` does for
 * each batch), without the importer's reading thread: a thread costs over a second of CPU under the
 * test runner's TypeScript loader, and tests that make many small changes would spend most of their
 * time starting threads.
 */
import { applyBatch, type Outcome } from '../../src/catalog/write.js';
import { hashOf, parseLine, type HashedRecord } from '../../src/catalog/parse.js';
import type { Catalog } from '../../src/catalog/store.js';

export function applyRecords(catalog: Catalog, records: object[]): Outcome[] {
  return applyBatch(catalog, hashedRecords(records));
}

/** Test records as the writer takes them: parsed by the import schema, with their line's hash. */
export function hashedRecords(records: object[]): HashedRecord[] {
  return records.map((r) => {
    const text = JSON.stringify(r);
    const parsed = parseLine(text);
    if (!parsed.ok) throw new Error(`bad test record ${text}: ${parsed.reason}`);
    return { record: parsed.record, hash: hashOf(text) };
  });
}
