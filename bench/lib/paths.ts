/**
 * Where the benches work in the repository: its root, bench/.data (generated catalogs and query
 * sets, git-ignored, kept between runs) and bench/results (the reports, committed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root; the benches run compiled, from dist/bench/. */
export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const DATA_DIR = path.join(ROOT, 'bench/.data');
export const RESULTS_DIR = path.join(ROOT, 'bench/results');

/** Write a bench's report to bench/results/<name>.md and its figures to <name>.json. */
export function writeResult(name: string, markdown: string, json: unknown): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, `${name}.md`), `${markdown}\n`);
  writeFileSync(path.join(RESULTS_DIR, `${name}.json`), JSON.stringify(json, null, 2));
}
