/**
 * A small seeded PRNG for the catalog generator. `Math.random` cannot be seeded, and the generator's
 * promise is byte-identical output for the same seed, so every random choice goes through here.
 */

/** splitmix32-style finaliser: spreads a 32-bit input over all output bits. */
export function mix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

/** Combines a seed with up to two keys (an entity id, a stream number) into one 32-bit seed. */
export function deriveSeed(seed: number, key: number, stream = 0): number {
  return mix32(mix32(mix32(seed >>> 0) ^ (key >>> 0)) ^ Math.imul(stream + 1, 0x85ebca6b));
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state, passes PractRand
 * far beyond what a catalog needs, and only uses 32-bit integer ops, which V8 keeps unboxed.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = mix32(seed);
    this.b = mix32(this.a ^ 0x5bd1e995);
    this.c = mix32(this.b ^ 0x27d4eb2f);
    this.d = 1;
    // The first outputs of a freshly seeded sfc32 are correlated with the seed: discard them.
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A uniform unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** A uniform integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** A uniform element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }
}

/** A copy of `items` in a random order (Fisher–Yates). */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
