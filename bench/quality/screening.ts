/**
 * Refrain's false-positive rate on every unrelated text the bench has, not only the `unrelated`
 * bucket's sample: each held-out fortune and each README paragraph of the unrelated half that fits
 * the bucket's rules (queries.ts `unrelatedPool`), screened with the documented rule (similarity ≥
 * threshold or longest_match ≥ longest). A sample of 100 cannot tell 1% from 2%; some 1,800 texts
 * can. The baselines have no calibrated score, so this is Refrain's alone. Every flagged text is
 * listed with the lyric it matched, for the reader to judge (a held-out fortune can be a
 * paraphrase of an imported one).
 */
import { Catalog } from '../../src/catalog/store.js';
import type { BenchPaths } from './catalog.js';
import { unrelatedPool } from './queries.js';
import type { RefrainSystem } from './systems/refrain.js';

export interface Flagged {
  origin: 'heldout' | 'prose';
  /** The held-out track the text comes from. */
  source?: number;
  text: string;
  trackId: number;
  similarity: number;
  longest: number;
  /** The matched track's lyrics. */
  lyric: string;
}

export interface Screening {
  rule: { similarity: number; longest: number };
  texts: number;
  heldout: number;
  prose: number;
  errors: number;
  flagged: Flagged[];
  seconds: number;
}

/** Screens the whole unrelated pool with a loaded Refrain, `concurrency` requests at a time. */
export async function screenUnrelated(
  refrain: RefrainSystem,
  paths: BenchPaths,
  options: { seed: number; similarity: number; longest: number; concurrency: number },
): Promise<Screening> {
  const started = performance.now();
  const pool = unrelatedPool(paths, options.seed);
  const flagged: Omit<Flagged, 'lyric'>[] = [];
  let errors = 0;
  let next = 0;
  const worker = async () => {
    while (next < pool.length) {
      const item = pool[next++];
      try {
        const top = (await refrain.search(item.text)).hits[0];
        if (top && (top.score >= options.similarity || (top.longestMatch ?? 0) >= options.longest)) {
          flagged.push({ ...item, trackId: top.trackId, similarity: top.score, longest: top.longestMatch ?? 0 });
        }
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const catalog = Catalog.open(paths.refrainData);
  try {
    return {
      rule: { similarity: options.similarity, longest: options.longest },
      texts: pool.length,
      heldout: pool.filter((p) => p.origin === 'heldout').length,
      prose: pool.filter((p) => p.origin === 'prose').length,
      errors,
      flagged: flagged
        .sort((a, b) => b.similarity - a.similarity)
        .map((f) => ({ ...f, lyric: catalog.getContent('lyrics', f.trackId)?.lyrics_body ?? '' })),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await catalog.close();
  }
}
