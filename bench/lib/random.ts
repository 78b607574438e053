/**
 * The benches' one seeded PRNG: the generator's sfc32 `Rng` (src/generate/prng.ts), so query sets
 * are the same on every run, plus the few helpers the benches need. A bench that draws several sets
 * gives each its own stream, so adding one does not change the others.
 */
import { Rng, deriveSeed, shuffled } from '../../src/generate/prng.js';

export { Rng, shuffled };

/** An independent generator for one named stream of a seed. */
export function streamRng(seed: number, name: string): Rng {
  let key = 0;
  for (let i = 0; i < name.length; i++) key = (Math.imul(key, 31) + name.charCodeAt(i)) >>> 0;
  return new Rng(deriveSeed(seed, key, 1));
}
