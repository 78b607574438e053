/**
 * The benches' one seeded PRNG: the generator's sfc32 `Rng` (src/generate/prng.ts), so query sets
 * are the same on every run, plus the few helpers the benches need. A bench that draws several sets
 * gives each its own stream, so adding one does not change the others.
 */
import { Rng, deriveSeed } from '../../src/generate/prng.js';

export { Rng };

/** An independent generator for one named stream of a seed. */
export function streamRng(seed: number, name: string): Rng {
  let key = 0;
  for (let i = 0; i < name.length; i++) key = (Math.imul(key, 31) + name.charCodeAt(i)) >>> 0;
  return new Rng(deriveSeed(seed, key, 1));
}

/** Fisher–Yates shuffle of a copy. */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
