/**
 * Refrain's native addon (native-index/, built by `npm ci`): what it exports, each with a TypeScript
 * implementation that stays the reference and the fallback. It is used when it loads; a machine
 * without a C++ compiler, or `REFRAIN_NATIVE=0` in the environment, runs the TypeScript code alone.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from './package-root.js';

/** LZ4 block compression against a dictionary loaded once (native-index/src/lz4-dictionary.cc). */
export interface NativeLz4Dictionary {
  /** The block of `value` written at out[offset..]; its length, or -1 when `out` has no room for it. */
  compressInto(value: Uint8Array, out: Uint8Array, offset: number): number;
}

/** One shard of packed posting lists, as the index stores it (src/index/store/postings.ts). */
export interface NativeShard {
  first: number;
  offsets: Uint32Array;
  bases: Uint32Array;
  widths: Uint8Array;
  starts: Uint32Array;
  data: Uint8Array;
  /** A sparse shard's present keys, their directory and [shift, range]. */
  keys?: Uint32Array;
  directory?: Uint32Array;
  shape?: Uint32Array;
}

/** The fingerprint's candidate stage (native-index/src/fingerprint.cc; src/index/kernel/votes.ts). */
export interface NativeFingerprintVotes {
  /** [document and vote pairs, best first; keys with postings; tied documents, ascending; whether keys were left unread]. */
  candidates(query: string, count: number, scale: number): [Uint32Array, number, boolean, boolean];
  /** The last candidates() call's tie, narrowed (src/index/kernel/votes.ts CandidateStage.tie). */
  tie(order?: Uint32Array): Uint32Array;
}

/** A query's grams (native-index/src/fingerprint.cc; src/index/kernel/coverage.ts). */
export interface NativeQueryGrams {
  /** Writes [covered, longest] into the constructor's `out`. */
  coverage(lyric: string): void;
}

/**
 * A clause of an intersection (native-index/src/intersect.cc; src/index/kernel/posting-ops.ts): a stored
 * list as [bases, widths, starts, data, start, length, weights], or an array as [docs, weights].
 */
export type NativeClause =
  | [Uint32Array, Uint8Array, Uint32Array, Uint8Array, number, number, number | Float32Array]
  | [Uint32Array, number | Float32Array];

/** The addon's version this code expects (kVersion in native-index/src/addon.cc). */
const NATIVE_VERSION = 7;

export interface NativeAddon {
  version: number;
  Lz4Dictionary: new (dictionary: Uint8Array) => NativeLz4Dictionary;
  FingerprintVotes: new (description: { docs: number; bits: number; limits: number[]; order: Uint32Array; shards: NativeShard[] }) => NativeFingerprintVotes;
  QueryGrams: new (normalized: string, out: Int32Array) => NativeQueryGrams;
  /** normalizeText's fast path (src/index/kernel/normalize.ts normalizeNarrow) over the table it is given. */
  NarrowFolder: new (codes: Int32Array, multi: readonly string[]) => { fold(text: string): string | undefined };
  /** The documents in every clause, their weights summed; null once `deadline` (Date.now() ms) passed. */
  intersect(clauses: NativeClause[], deadline: number): [Uint32Array, number | Float32Array] | null;
  /** Of some documents (ascending), those every stored list holds (src/index/kernel/posting-ops.ts holdingEvery). */
  holdingEvery(docs: Uint32Array, lists: NativeClause[]): Uint32Array;
  /** track.search's scoring loop (src/index/kernel/rank.ts): [the best documents, how many passed]; null past `deadline`. */
  rankTracks(columns: object, docs: Uint32Array | null, weights: number | Float32Array, ranking: object, deadline: number): [Uint32Array, number] | null;
}

let loaded: { addon: NativeAddon | undefined; why: string } | undefined;

/** The addon, or undefined (then `nativeStatus()` says why). Loaded once per thread. */
export function nativeAddon(): NativeAddon | undefined {
  return load().addon;
}

/** 'native', or why the TypeScript implementations answer alone. */
export function nativeStatus(): string {
  return load().why;
}

function load(): { addon: NativeAddon | undefined; why: string } {
  if (loaded) return loaded;
  if (process.env.REFRAIN_NATIVE === '0') return (loaded = { addon: undefined, why: 'off (REFRAIN_NATIVE=0)' });
  const root = packageRoot();
  if (!root) return (loaded = { addon: undefined, why: 'not found (no package root)' });
  // REFRAIN_NATIVE_ADDON names another build of it (native-index/sanitize.mjs runs the tests on one built with sanitizers).
  const file = process.env.REFRAIN_NATIVE_ADDON || path.join(root.dir, 'native-index', 'build', 'Release', 'refrain_native.node');
  try {
    const addon = createRequire(import.meta.url)(file) as NativeAddon;
    if (addon.version !== NATIVE_VERSION) {
      return (loaded = { addon: undefined, why: `not loaded (built from other sources: version ${addon.version}, not ${NATIVE_VERSION}; run npm run build:native)` });
    }
    return (loaded = { addon, why: 'native' });
  } catch (e) {
    return (loaded = { addon: undefined, why: `not loaded (${(e as Error).message.split('\n')[0]})` });
  }
}
