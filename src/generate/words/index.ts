/** The embedded languages and how often generated artists sing in each. */
import { weightTable, type WeightTable } from '../distributions.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import type { LanguagePack } from './pack.js';
import { pt } from './pt.js';

export type { LanguagePack, ModerationCategory } from './pack.js';

/** Mostly English, as a real catalog is; each other language a few percent. */
export const LANGUAGES: WeightTable<LanguagePack> = weightTable([
  [en, 70],
  [es, 10],
  [pt, 6],
  [it, 5],
  [fr, 5],
  [de, 4],
]);

export const ENGLISH = en;

/** Each embedded language by its ISO 639-1 code. */
export const PACKS: ReadonlyMap<string, LanguagePack> = new Map([en, es, pt, it, fr, de].map((p) => [p.code, p]));
