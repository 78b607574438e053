/**
 * Fingerprint features (docs/index.md): hashed character 5-grams of the normalised text, spaces
 * included, so a gram spans word boundaries and one typo breaks only the five grams around it.
 *
 * The index keeps one gram in `SAMPLE` chosen by the gram's own hash ("content-defined sampling"):
 * a query and a lyric that share a passage keep the same grams of it, whatever the passage's offset,
 * and the index is `SAMPLE` times smaller than a full one. Verification then compares every gram.
 */

export const GRAM = 5;
/** One gram in SAMPLE is indexed (a power of two). */
export const SAMPLE = 4;
/**
 * Keys are reduced to this many bits to address the posting lists: enough for about 128 lists per
 * track (few collisions), at most 2^24 (a 64 MiB offset table), at least 2^16.
 */
export function bucketBitsFor(tracks: number): number {
  return Math.min(24, Math.max(16, Math.ceil(Math.log2(Math.max(1, tracks) * 128))));
}

const BASE = 0x01000193;
/** BASE^(GRAM-1) mod 2^32, to take the outgoing character off the rolling hash. */
const BASE_OUT = (() => {
  let p = 1;
  for (let i = 1; i < GRAM; i++) p = Math.imul(p, BASE);
  return p;
})();

/** murmur3's finaliser: spreads the rolling hash so its low and high bits are independent. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Hash of every gram of `s`, in order: out[i] is the gram starting at code unit i. Returns the
 * number of grams (0 when `s` is shorter than one gram). `out` must hold s.length entries.
 */
export function gramHashes(s: string, out: Uint32Array): number {
  const n = s.length - GRAM + 1;
  if (n <= 0) return 0;
  let h = 0;
  for (let i = 0; i < GRAM - 1; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  for (let i = 0; i < n; i++) {
    h = (Math.imul(h, BASE) + s.charCodeAt(i + GRAM - 1)) | 0;
    out[i] = mix(h);
    h = (h - Math.imul(s.charCodeAt(i), BASE_OUT)) | 0;
  }
  return n;
}

/** Whether a gram hash is one the index keeps (besides the grams of unspaced scripts, `unspacedAt`). */
export const isSampled = (hash: number): boolean => (hash & (SAMPLE - 1)) === 0;

/**
 * Whether the character at `i` is of a script written without spaces between words: kana, Han,
 * Thai, Lao, Khmer, Myanmar. A gram starting with one is always kept: five such characters say as
 * much as two or three words, and a quoted line of a few of them must still have a key (the
 * endpoint screens texts from six of them, `track.lyrics.fingerprint.post`).
 */
export function unspacedAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0x0e00) return false;
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
    c <= 0x0eff || (c >= 0x1000 && c <= 0x109f) || (c >= 0x1780 && c <= 0x17ff);
}

/** Two hashes combined into one, mixed (a key from a pair of grams; kernel/order.ts's bit from a pair of words). */
export const pairHash = (first: number, second: number): number => mix((Math.imul(first, 0x9e3779b1) ^ second) >>> 0);

/** The posting list (of 2^bits) a key hash lives in. */
export const bucketOf = (hash: number, bits: number): number => hash >>> (32 - bits);

/**
 * Distinct index keys of a normalised text, ascending: each pair of consecutive kept grams (sampled, or of an unspaced script),
 * hashed together into one of 2^bits posting lists. A pair spans about GRAM + SAMPLE characters and every line break of a passage
 * falls inside one, so the keys that tell songs apart (where one cliché line meets the next) are
 * rare, short posting lists, while a typo still breaks only the one or two pairs around it.
 */
export function indexKeys(s: string, scratch: Uint32Array, bits: number): Uint32Array {
  const n = gramHashes(s, scratch);
  let k = 0;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const h = scratch[i];
    if (!isSampled(h) && !unspacedAt(s, i)) continue;
    if (prev >= 0) scratch[k++] = bucketOf(pairHash(prev, h), bits);
    prev = h;
  }
  const sorted = scratch.subarray(0, k).sort();
  let u = 0;
  for (let i = 0; i < k; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[u++] = sorted[i];
  return sorted.subarray(0, u);
}
