/**
 * The lyrics analysis ("lens") of a generated song. Everything in it is read off the song itself:
 * entity matches are found by scanning `lyrics_body` (so start_char/end_char index the real text),
 * quotes are lines the song sings, moderation flags come from the explicit lines it contains.
 */
import { ALL_ENTITIES, surfaceOf, type KnownEntity } from './entities.js';
import type { Song } from './lyrics.js';
import type { Rng } from './prng.js';

/** The spec's moderation category values, in the spec's order. */
export const MODERATION_CATEGORIES = [
  'harassment', 'hate', 'illicit', 'sexual', 'violence', 'harassment/threatening', 'hate/threatening',
  'illicit/violent', 'self-harm/intent', 'self-harm/instructions', 'self-harm', 'sexual/minors', 'violence/graphic',
] as const;

export interface EntityMatch {
  start_char: number;
  end_char: number;
  matched_text: string;
}

const LETTER = /\p{L}/u;

/**
 * Every whole-word occurrence of `needle` in `text`, as [start, end) UTF-16 offsets
 * (`text.slice(start_char, end_char) === matched_text`). A match inside a longer word does not count.
 */
export function findMatches(text: string, needle: string): EntityMatch[] {
  const out: EntityMatch[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    const end = at + needle.length;
    if ((at > 0 && LETTER.test(text[at - 1])) || (end < text.length && LETTER.test(text[end]))) continue;
    out.push({ start_char: at, end_char: end, matched_text: needle });
  }
  return out;
}

function entityOf(entity: KnownEntity, matches: EntityMatch[]): Record<string, unknown> {
  const slug = entity.name.replace(/ /g, '_');
  return {
    categories: [entity.category],
    entity_name: entity.name,
    matches,
    model_metadata: { description: 'named entity recognised in the lyrics', type: entity.category === 'Location' ? 'LOC' : 'MISC' },
    occurrences: matches.length,
    wikidata: {
      description: entity.description,
      id: entity.wikidataId,
      rank: 1,
      thumbnail: `https://images.refrain.invalid/wikidata/${entity.wikidataId}.jpg`,
      types: [entity.type],
    },
    wikipedia: [{ language: 'en', url: `https://en.wikipedia.org/wiki/${slug}` }],
  };
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Categories whose explicit expressions are strong rather than moderate. */
const STRONG = new Set(['sexual', 'violence', 'hate', 'self-harm']);

/** Builds the lens members (entities, language_detection, meaning, moderation, moods, rating, religion, themes). */
export function analyse(rng: Rng, song: Song): Record<string, unknown> {
  const { body, lang, theme } = song;
  const entityList: Array<Record<string, unknown>> = [];
  let religious = false;
  for (const entity of ALL_ENTITIES) {
    const matches = findMatches(body, surfaceOf(entity, lang.code));
    if (matches.length === 0) continue;
    entityList.push(entityOf(entity, matches));
    if (entity.category === 'Religion') religious = true;
  }
  const present = new Set<string>(song.categories);
  const categories = MODERATION_CATEGORIES.map((category) => ({
    category,
    is_present: present.has(category),
    score: present.has(category) ? round(0.55 + rng.float() * 0.4, 4) : round(rng.float() * 0.02, 6),
  }));
  const flagged = present.size > 0;
  const mature = present.has('sexual') || present.has('violence');
  const moods = theme.moods.slice(0, rng.int(2, 3));
  const quotes = [...new Set(song.themeLines.concat(song.chorus.slice(1, 2)))];
  const explicit = lang.explicit
    .map(({ line, category }) => ({ expression: line, category, severity: STRONG.has(category) ? 'strong' : 'moderate', matches: findMatches(body, line) }))
    .filter((e) => e.matches.length > 0);
  const names = entityList.map((e) => e.entity_name as string);
  return {
    entities: {
      description: names.length ? `Named entities in the lyrics: ${names.join(', ')}.` : 'No named entities recognised in the lyrics.',
      entity_list: entityList,
    },
    explicitness: {
      description: explicit.length ? `${explicit.length} explicit ${explicit.length === 1 ? 'expression' : 'expressions'} (${[...new Set(explicit.map((e) => e.category))].join(', ')}).` : 'No explicit expressions.',
      is_explicit: explicit.length > 0,
      explicit_expressions: explicit,
    },
    language_detection: {
      description: `The lyrics are in ${lang.name}.`,
      languages: [{ is_romanized: false, language_iso_code_1: lang.code, language_iso_code_3: lang.iso3, language_name: lang.name, percentage: 100 }],
    },
    meaning: {
      description: `A song about ${theme.about}.`,
      explanation: `The chorus keeps returning to "${song.chorus[0]}", which frames "${song.title}" as a song about ${theme.about}.`,
    },
    moderation: {
      categories,
      description: flagged ? `Contains ${[...present].join(', ')} content.` : 'No content requiring moderation.',
      needs_moderation: flagged,
    },
    moods: { description: `The song feels ${moods.join(', ').toLowerCase()}.`, main_moods: moods },
    rating: mature
      ? { audience: 'Adults', description: 'Explicit lyrics.', descriptor: 'Explicit' }
      : flagged
        ? { audience: 'Teens', description: 'Some strong language.', descriptor: 'Parental guidance' }
        : { audience: 'All ages', description: 'Suitable for all audiences.', descriptor: 'Clean' },
    religion: {
      description: religious ? 'The lyrics make religious references.' : 'No religious references.',
      has_references: religious,
    },
    themes: {
      description: `Mainly about ${theme.about}.`,
      main_themes: [{ theme: theme.name, quotes }],
    },
  };
}
