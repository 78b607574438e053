/**
 * What the text index stores per document and how terms are spelled (docs/index.md). Shared by the
 * builder and the searchers so both sides agree byte for byte.
 */

/** Field tags: a term is `<tag>\u0001<value>`. */
export const FIELD = {
  /** Track docs: words of the title, of the artist's names, of the lyrics, of the writers. */
  title: 't',
  artist: 'a',
  lyrics: 'l',
  writer: 'w',
  /** Track docs: trigrams of the title core (fuzzy matching). */
  titleGram: 'g',
  /** Track docs: title core + lead artist (precise match), + an alias or translation (alias match). */
  precise: 'p',
  alias: 'q',
  /** Artist docs: words and trigrams of every name variant, and each whole variant. */
  artistWord: 'n',
  artistGram: 'c',
  artistExact: 'x',
} as const;

export const term = (field: string, value: string): string => `${field}\u0001${value}`;
export const pairKey = (title: string, artist: string): string => `${title}\u0002${artist}`;

/** Bits of a track's `flags` column. */
export const FLAG = { lyrics: 1, subtitles: 2, richsync: 4, analysis: 8, instrumental: 16 } as const;

/** A language code's primary subtag packed into 16 bits (a–z, up to three letters); 0 when none. */
export function packLanguage(code: string): number {
  const primary = code.toLowerCase().split('-')[0];
  if (!/^[a-z]{2,3}$/.test(primary)) return 0;
  let v = 0;
  for (let i = 0; i < 3; i++) v = v * 27 + (i < primary.length ? primary.charCodeAt(i) - 96 : 0);
  return v;
}

/** YYYY-MM-DD (00 for unknown parts) as the number YYYYMMDD; 0 when absent. */
export const packDate = (date: string): number => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? Number(date.replace(/-/g, '')) : 0);
