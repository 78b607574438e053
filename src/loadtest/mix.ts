/**
 * The traffic mix of `refrain loadtest`: which API methods the run calls and in what proportion,
 * given as `--mix fingerprint=40,track.get=30,track.search=20,matcher.track.get=10` (the default).
 * Weights are relative (they need not add up to 100); a method at weight 0 is left out.
 */
import { RefrainError } from '../errors.js';
import type { Rng } from '../generate/prng.js';

/** The methods a run can call, by the name `--mix` takes, with the API method each one is. */
export const LOAD_METHODS = {
  fingerprint: 'track.lyrics.fingerprint.post',
  'track.get': 'track.get',
  'track.lyrics.get': 'track.lyrics.get',
  'track.search': 'track.search',
  'matcher.track.get': 'matcher.track.get',
  'artist.get': 'artist.get',
  'album.get': 'album.get',
  'chart.tracks.get': 'chart.tracks.get',
} as const;

export type LoadMethod = keyof typeof LOAD_METHODS;

export const DEFAULT_MIX = 'fingerprint=40,track.get=30,track.search=20,matcher.track.get=10';

export interface MixEntry {
  method: LoadMethod;
  weight: number;
}

const byApiName = new Map<string, LoadMethod>(Object.entries(LOAD_METHODS).map(([k, v]) => [v, k as LoadMethod]));

/** Parse a mix; every problem is a usage error naming the part at fault. */
export function parseMix(text: string): MixEntry[] {
  const entries: MixEntry[] = [];
  const known = Object.keys(LOAD_METHODS).join(', ');
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([a-z.]+)\s*=\s*(\d+(?:\.\d+)?)$/i.exec(part);
    if (!m) throw new RefrainError('usage', `--mix: "${part}" is not method=weight (e.g. track.get=30)`);
    const name = m[1].toLowerCase();
    const method = (Object.hasOwn(LOAD_METHODS, name) ? name : byApiName.get(name)) as LoadMethod | undefined;
    if (!method) throw new RefrainError('usage', `--mix: unknown method "${m[1]}"; one of ${known}`);
    if (entries.some((e) => e.method === method)) throw new RefrainError('usage', `--mix: ${method} is given twice`);
    const weight = Number(m[2]);
    if (weight > 0) entries.push({ method, weight });
  }
  if (entries.length === 0) throw new RefrainError('usage', `--mix: no method with a weight above 0; e.g. ${DEFAULT_MIX}`);
  return entries;
}

/** The mix as `--mix` would take it, each weight as its share in percent. */
export function mixText(mix: readonly MixEntry[]): string {
  const total = mix.reduce((n, e) => n + e.weight, 0);
  return mix.map((e) => `${e.method}=${Math.round((1000 * e.weight) / total) / 10}`).join(',');
}

/** Draws methods in the mix's proportions (a cumulative table and one uniform draw each). */
export class MixPicker {
  private readonly methods: LoadMethod[];
  private readonly upTo: number[];

  constructor(mix: readonly MixEntry[], private readonly rng: Rng) {
    const total = mix.reduce((n, e) => n + e.weight, 0);
    let sum = 0;
    this.methods = mix.map((e) => e.method);
    this.upTo = mix.map((e) => (sum += e.weight / total));
    this.upTo[this.upTo.length - 1] = 1;
  }

  next(): LoadMethod {
    const u = this.rng.float();
    let i = 0;
    while (u >= this.upTo[i]) i++;
    return this.methods[i];
  }
}
