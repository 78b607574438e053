import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';

/** A temporary directory removed when the test ends. */
export function tempDir(t: Test, prefix = 'refrain-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Write JSONL records to a file in `dir`. */
export function writeJsonl(dir: string, name: string, records: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  return file;
}

export const CORPUS_DIR = path.resolve(import.meta.dirname, '../../../shared/corpus');
