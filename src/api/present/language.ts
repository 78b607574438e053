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
