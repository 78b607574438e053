/**
 * Identifiers of generated records. Generated ids come from ranges disjoint from the real-text
 * corpus (10,000,000–14,999,999) and from each other, so a synthetic catalog can be imported next
 * to real ones without an id ever colliding; all stay below the 32-bit maximum the schema allows.
 */
import type { Rng } from './prng.js';

/** Track ids are TRACK_ID_BASE + n for the n-th track (n from 1). */
export const TRACK_ID_BASE = 100_000_000;
/** Album ids are ALBUM_ID_BASE + n for the n-th album. */
export const ALBUM_ID_BASE = 200_000_000;
/** Artist ids are ARTIST_ID_BASE + n for the n-th artist. */
export const ARTIST_ID_BASE = 300_000_000;
/** The most tracks one catalog can hold before track ids would run into album ids. */
export const MAX_TRACKS = ALBUM_ID_BASE - TRACK_ID_BASE - 1;

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const REGISTRANTS = 36 ** 3;
const DESIGNATIONS = 100_000;
const ISRC_SPACE = REGISTRANTS * DESIGNATIONS;
// Coprime with 2, 3 and 5 (ISRC_SPACE = 2^11·3^6·5^5), so n -> n·STRIDE mod ISRC_SPACE is a bijection.
const ISRC_STRIDE = 1_000_003;

/**
 * The ISRC of the n-th track: country code + 3-character registrant + 2-digit year + 5-digit
 * designation. Registrant and designation are an affine permutation of `n`, so every track of a
 * catalog gets a different code whatever its country and year, and codes still look scattered.
 */
export function isrcFor(n: number, offset: number, country: string, year: number): string {
  // n < 2^27 and ISRC_STRIDE < 2^20 keep the product exact in a double.
  const x = (n * ISRC_STRIDE + offset) % ISRC_SPACE;
  const registrant = Math.floor(x / DESIGNATIONS);
  const designation = x % DESIGNATIONS;
  const reg = BASE36[Math.floor(registrant / 1296)] + BASE36[Math.floor(registrant / 36) % 36] + BASE36[registrant % 36];
  const yy = String(year % 100).padStart(2, '0');
  return country + reg + yy + String(designation).padStart(5, '0');
}

/** A 22-character base62 id, the shape of a streaming service's track id. */
export function spotifyId(rng: Rng): string {
  let out = '';
  for (let chunk = 0; chunk < 5; chunk++) {
    // 62^5 < 2^32: each 32-bit draw yields five digits (the last chunk uses two of them).
    let v = rng.u32();
    for (let k = 0; k < 5 && out.length < 22; k++) {
      out += BASE62[v % 62];
      v = Math.floor(v / 62);
    }
  }
  return out;
}

/** A store track id: a 9–10 digit number written as a string, as the API does. */
export function itunesId(rng: Rng): string {
  return String(rng.int(200_000_000, 1_799_999_999));
}

/** A lowercase RFC 4122 version-4-shaped UUID, the shape of a MusicBrainz id. */
export function mbid(rng: Rng): string {
  const hex = (n: number, len: number): string => n.toString(16).padStart(len, '0').slice(-len);
  const a = rng.u32();
  const b = rng.u32();
  const c = rng.u32();
  const d = rng.u32();
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b, 3)}-${hex(8 + (c >>> 30), 1)}${hex(c, 3)}-${hex(d, 8)}${hex(c >>> 12, 4)}`;
}
