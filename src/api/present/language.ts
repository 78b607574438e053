import { iso6393 } from 'iso-639-3';

/** English names of language codes ("en" → "English"), from the ICU data Node ships. */
const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
const cache = new Map<string, string>();

export function languageDescription(code: string): string {
  if (!code) return '';
  let name = cache.get(code);
  if (name === undefined) {
    try {
      name = names.of(code) ?? code;
    } catch {
      name = code;
    }
    cache.set(code, name);
  }
  return name;
}

/** Every ISO 639-1 code (184), the codes `selected_language` takes. */
export const ISO_639_1: ReadonlySet<string> = new Set(iso6393.flatMap((l) => (l.iso6391 ? [l.iso6391] : [])));
