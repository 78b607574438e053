/**
 * languages.get: the languages lyrics can be in, as ISO 639 codes and English names from the
 * `iso-639-3` package (the SIL registry): every language with a two-letter ISO 639-1 code, the codes
 * the API's language fields and filters (`f_lyrics_language`, `selected_language`) take.
 *
 * With `get_romanized_info=1` each language also says whether its lyrics can be written romanized:
 * `has_romanization` is 1 when the script the language is usually written in (CLDR's likely
 * subtags, through Intl.Locale) is not Latin, and `iso_code_romanization` is then the BCP 47 tag
 * of the romanized form (`ja-Latn`). `is_romanized` is 0: every entry is the language itself.
 */
import { z } from 'zod';
import { iso6393 } from 'iso-639-3';
import { defineMethod } from '../method.js';
import { boolParam } from '../params.js';

interface Language {
  language_iso_code_1: string;
  language_iso_code_3: string;
  language_name: string;
  has_romanization: 0 | 1;
  iso_code_romanization: string;
}

/** Built once: 184 languages. */
const LANGUAGES: readonly Language[] = iso6393
  .filter((l) => l.iso6391)
  .map((l): Language => {
    const code = l.iso6391!;
    let script = 'Latn';
    try {
      script = new Intl.Locale(code).maximize().script ?? 'Latn';
    } catch {
      // A code ICU does not know: no romanization claimed.
    }
    const romanizable = script !== 'Latn';
    return {
      language_iso_code_1: code,
      language_iso_code_3: l.iso6393,
      language_name: l.name,
      has_romanization: romanizable ? 1 : 0,
      iso_code_romanization: romanizable ? `${code}-Latn` : '',
    };
  })
  .sort((a, b) => a.language_iso_code_1.localeCompare(b.language_iso_code_1));

const Entry = z.object({
  language_iso_code_1: z.string().describe('ISO 639-1'),
  language_iso_code_3: z.string().describe('ISO 639-3'),
  language_name: z.string().describe('English name'),
  has_romanization: z.number().optional().describe('get_romanized_info=1: 1 when the language is usually written in a script other than Latin'),
  is_romanized: z.number().optional().describe('get_romanized_info=1: 0, every entry is the language itself'),
  iso_code_romanization: z.string().optional().describe('get_romanized_info=1: BCP 47 tag of the romanized form, or empty'),
});

export default defineMethod({
  name: 'languages.get',
  http: 'GET',
  summary: 'The languages lyrics can be in (ISO 639-1 and 639-3 codes, English names)',
  cache: 'shared',
  params: z.object({
    get_romanized_info: boolParam.default(false).describe('1 adds has_romanization, is_romanized and iso_code_romanization'),
  }),
  body: z.object({ language_list: z.array(z.object({ language: Entry })) }),
  statuses: [400],
  handle(_ctx, p) {
    return {
      language_list: LANGUAGES.map(({ has_romanization, iso_code_romanization, ...plain }) => ({
        language: p.get_romanized_info ? { ...plain, has_romanization, is_romanized: 0, iso_code_romanization } : plain,
      })),
    };
  },
});
