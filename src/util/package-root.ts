/**
 * The directory of Refrain's package.json, found by walking up from this file: the repository
 * under tests (src/util/), the same under a build (dist/src/util/). Tools that ship files beside
 * the code (the version, the docs) find them from here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function packageRoot(): { dir: string; version: string } | undefined {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'refrain') return { dir, version: pkg.version ?? 'unknown' };
    } catch {
      // no package.json here: look in the parent
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
