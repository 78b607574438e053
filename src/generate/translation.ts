/**
 * Translations of generated lyrics. The generator has no translator, so a "translation" is a line of
 * the target language's templates standing for each original line: the same line always translates
 * the same way (a chorus repeats its translation), blank lines stay blank, and a partial
 * translation covers the first lines only, as a translation in progress does. The import derives
 * the share translated and the subtitle translation from it (docs/import-format.md).
 */
import { fill } from './lyrics.js';
import { Rng, mix32 } from './prng.js';
import { PACKS } from './words/index.js';

/** FNV-1a of a line, to seed its translation. */
function lineSeed(text: string, language: string): number {
  let h = 0x811c9dc5;
  for (const s of [language, text]) {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  return mix32(h);
}

/** `body` translated to `language` (an embedded language) for a share `perc` (0–1) of its sung lines. */
export function translateLyrics(body: string, language: string, perc: number): string {
  const pack = PACKS.get(language);
  if (!pack) throw new Error(`no embedded language ${language}`);
  const lines = body.split('\n');
  const sung = lines.filter((l) => l.trim() !== '').length;
  // A translation in progress has at least its first line.
  let left = Math.max(1, Math.round(sung * perc));
  return lines
    .map((line) => {
      if (line.trim() === '' || left === 0) return '';
      left--;
      const rng = new Rng(lineSeed(line, language));
      return fill(rng, pack, rng.pick(pack.templates));
    })
    .join('\n');
}
