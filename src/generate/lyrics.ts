/**
 * Song lyrics: verses, a chorus sung two or three times, sometimes a pre-chorus and a bridge,
 * sections separated by a blank line (the API's `lyrics_body` layout). Lines mix phrases shared by
 * many songs with lines filled from word lists, so the catalog has both the heavy overlap of real
 * lyrics and enough distinct text to tell songs apart.
 */
import { CITIES, surfaceOf } from './entities.js';
import { pickWeighted, zipfTable, type WeightTable } from './distributions.js';
import type { Rng } from './prng.js';
import { CONFLICT_THEME, DESIRE_THEME, FAITH_THEME, THEMES, type Theme } from './themes.js';
import type { LanguagePack, ModerationCategory } from './words/index.js';

export type SectionKind = 'verse' | 'pre-chorus' | 'chorus' | 'bridge';

export interface Section {
  readonly kind: SectionKind;
  readonly lines: readonly string[];
}

/** A written song: its text and what the analysis needs to describe it truthfully. */
export interface Song {
  readonly lang: LanguagePack;
  readonly sections: readonly Section[];
  /** `lyrics_body`: lines joined by `\n`, sections by a blank line. */
  readonly body: string;
  /** The chorus lines (the snippet comes from here). */
  readonly chorus: readonly string[];
  readonly title: string;
  readonly theme: Theme;
  /** Moderation categories triggered by the explicit lines, empty for a clean song. */
  readonly categories: readonly ModerationCategory[];
  /** Lines carrying the theme, for the analysis' quotes: all are lines of `body`. */
  readonly themeLines: readonly string[];
}

export interface SongOptions {
  readonly explicit: boolean;
  readonly faith: boolean;
}

// Built once per language: the first common phrases are heard far more often than the last.
const commonTables = new Map<LanguagePack, WeightTable<string>>();
function commonTable(lang: LanguagePack): WeightTable<string> {
  let table = commonTables.get(lang);
  if (!table) {
    table = zipfTable(lang.common, 0.7);
    commonTables.set(lang, table);
  }
  return table;
}

const SLOT = /\{([nvapt])\}/g;
/** A line that only repeats one word: "Oh, oh, oh", "Yeah, yeah". */
const VOCALISE = /^(\p{L}+)(, \1)+$/iu;

/** A line from a template, its slots filled from the language's word lists. */
export function fill(rng: Rng, lang: LanguagePack, template: string): string {
  const line = template.replace(SLOT, (_, slot: string) => {
    switch (slot) {
      case 'n': return rng.pick(lang.nouns);
      case 'v': return rng.pick(lang.verbs);
      case 'a': return rng.pick(lang.adjectives);
      case 'p': return surfaceOf(rng.pick(CITIES), lang.code);
      default: return rng.pick(lang.times);
    }
  });
  return line.charAt(0).toUpperCase() + line.slice(1);
}

function line(rng: Rng, lang: LanguagePack, commonShare: number): string {
  return rng.chance(commonShare) ? pickWeighted(rng, commonTable(lang)) : fill(rng, lang, rng.pick(lang.templates));
}

function lines(rng: Rng, lang: LanguagePack, count: number, commonShare: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let next = line(rng, lang, commonShare);
    // The commonest phrases come up often: don't sing one twice in a row by accident.
    if (i > 0 && next === out[i - 1]) next = fill(rng, lang, rng.pick(lang.templates));
    out.push(next);
  }
  return out;
}

/** The title a hook suggests: no leading interjection, at most the first clause, title case in English. */
export function titleFromHook(hook: string, lang: LanguagePack): string {
  let title = hook.replace(/^(Oh|Ay|Ai|Ah), /, '');
  const comma = title.indexOf(',');
  if (comma > 0 && title.slice(0, comma).includes(' ')) title = title.slice(0, comma);
  const words = title.split(' ');
  if (words.length > 8) title = words.slice(0, 6).join(' ');
  if (lang.code === 'en') title = title.replace(/(^|\s)(\p{Ll})/gu, (_, sp: string, ch: string) => sp + ch.toUpperCase());
  return title.charAt(0).toUpperCase() + title.slice(1);
}

function chorusOf(rng: Rng, lang: LanguagePack, hook: string): string[] {
  const rest = lines(rng, lang, rng.int(4, 7), 0.5);
  const chorus = [hook, ...rest];
  // Real choruses come back to their hook: once in the middle, often again at the end.
  if (rng.chance(0.6)) chorus.splice(1 + (rest.length >> 1), 0, hook);
  if (rng.chance(0.5)) chorus.push(hook);
  return chorus;
}

/** Replaces a random verse line with `text`, sparing the last line of the last verse. */
function plant(rng: Rng, verses: string[][], text: string): void {
  const v = rng.int(0, verses.length - 1);
  const last = v === verses.length - 1 ? verses[v].length - 2 : verses[v].length - 1;
  verses[v][rng.int(0, last)] = text;
}

/** Writes one song in `lang`. Pure in `rng`: the same generator state writes the same song. */
export function writeSong(rng: Rng, lang: LanguagePack, options: SongOptions): Song {
  // Hooks from the common phrases are drawn uniformly, not Zipf-wise: otherwise one phrase would
  // title a few percent of the catalog.
  let hook = rng.chance(0.75) ? fill(rng, lang, rng.pick(lang.hooks)) : rng.pick(lang.common);
  // "Oh, oh, oh" makes a poor hook and a worse title.
  if (VOCALISE.test(hook)) hook = fill(rng, lang, rng.pick(lang.hooks));
  const chorus = chorusOf(rng, lang, hook);
  const verseLength = rng.int(9, 13);
  const verses: string[][] = [];
  const verseCount = rng.chance(0.5) ? 3 : 2;
  for (let i = 0; i < verseCount; i++) verses.push(lines(rng, lang, verseLength - (i === 2 ? 2 : 0), 0.4));
  const pre = rng.chance(0.6) ? lines(rng, lang, 2, 0.5) : undefined;
  const bridge = rng.chance(0.55) ? [rng.pick(lang.fillers), ...lines(rng, lang, rng.int(1, 3), 0.3)] : undefined;

  const themeLines = [hook];
  const categories: ModerationCategory[] = [];
  let theme: Theme = pickWeighted(rng, THEMES);
  if (options.faith) {
    theme = FAITH_THEME;
    const faithLine = rng.pick(lang.faith);
    // The last line of the last verse is never overwritten by `plant`, so the faith line stays sung.
    const lastVerse = verses[verses.length - 1];
    lastVerse[lastVerse.length - 1] = faithLine;
    themeLines.push(faithLine);
  }
  if (options.explicit) {
    for (let i = rng.int(1, 2); i > 0; i--) {
      const { line: text, category } = rng.pick(lang.explicit);
      plant(rng, verses, text);
      if (!categories.includes(category)) categories.push(category);
      themeLines.push(text);
    }
    if (!options.faith) theme = categories.includes('sexual') ? DESIRE_THEME : categories.includes('violence') || categories.includes('harassment') ? CONFLICT_THEME : theme;
  }
  // Two explicit lines can land on the same slot: keep only lines still sung.
  const sung = (text: string): boolean => text === hook || verses.some((v) => v.includes(text));
  const liveThemeLines = themeLines.filter(sung);
  const liveCategories = categories.filter((c) => lang.explicit.some((e) => e.category === c && sung(e.line)));

  const sections: Section[] = [];
  verses.forEach((verse, i) => {
    sections.push({ kind: 'verse', lines: verse });
    if (i === 2) return;
    if (pre) sections.push({ kind: 'pre-chorus', lines: pre });
    sections.push({ kind: 'chorus', lines: chorus });
  });
  if (bridge) sections.push({ kind: 'bridge', lines: bridge });
  if (verseCount === 3 || bridge) sections.push({ kind: 'chorus', lines: rng.chance(0.4) ? [...chorus, hook] : chorus });

  return {
    lang,
    sections,
    body: sections.map((s) => s.lines.join('\n')).join('\n\n'),
    chorus,
    title: titleFromHook(hook, lang),
    theme,
    categories: liveCategories,
    themeLines: liveThemeLines,
  };
}
