/**
 * What track.lyrics.translation.get and track.subtitle.translation.get share: the language and
 * completeness parameters, and the translation they select.
 */
import { z } from 'zod';
import type { Catalog } from '../../catalog/store.js';
import type { TrackRecord, Translation } from '../../catalog/records.js';
import { findTrack, hasContent, type TrackIds } from '../lookup.js';
import { ISO_639_1 } from '../present/language.js';

export const translationParams = {
  selected_language: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .refine((s) => ISO_639_1.has(s), 'must be an ISO 639-1 language code such as it (languages.get lists them)')
    .describe('language of the translation, ISO 639-1'),
  min_completed: z
    .string()
    .regex(/^ *(0(\.\d{1,6})?|1(\.0{1,6})?|\.\d{1,6}) *$/, 'must be a number from 0 to 1')
    .transform(Number)
    .optional()
    .describe('least share of the lyrics translated, 0–1 (default 0: any translation)'),
};

export interface TranslationChoice extends TrackIds {
  selected_language: string;
  min_completed?: number;
}

/**
 * The track named by the parameters: among several versions, the most popular one with the content
 * and a translation to the language, else one with the content, else the most popular.
 */
export function findTranslatedTrack(catalog: Catalog, p: TranslationChoice, content: 'lyrics' | 'subtitles'): TrackRecord {
  return findTrack(
    catalog,
    p,
    (t) => hasContent(t, content) && t.track_lyrics_translation_status.some((s) => s.to === p.selected_language),
    (t) => hasContent(t, content),
  );
}

/** The track's translation to the selected language, when there is one complete enough (`share`: the lyrics' or the subtitle's). */
export function translationOf(catalog: Catalog, track: TrackRecord, p: TranslationChoice, share: 'perc' | 'subtitle_perc'): Translation | undefined {
  if (!track.track_lyrics_translation_status.some((s) => s.to === p.selected_language)) return undefined;
  const x = catalog.getContent('translations', track.track_id)?.translations.find((t) => t.language === p.selected_language);
  if (!x || (share === 'subtitle_perc' && !x.subtitle_body)) return undefined;
  return x[share] >= (p.min_completed ?? 0) ? x : undefined;
}
