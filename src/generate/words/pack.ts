/**
 * The shape of one language's embedded word lists. Lyrics are built from two kinds of lines:
 * `common` phrases that many songs share (as real lyrics do: a fingerprint index must cope with
 * them) and `templates` filled from the word lists, which make each song distinguishable.
 */

/** Moderation categories a line can trigger (a subset of the spec's category values). */
export type ModerationCategory = 'harassment' | 'illicit' | 'sexual' | 'violence';

export interface LanguagePack {
  /** ISO 639-1 code, the value of `lyrics_language`. */
  readonly code: string;
  /** ISO 639-2/T code, for the analysis' language detection. */
  readonly iso3: string;
  /** English name of the language. */
  readonly name: string;
  /** Phrases heard in countless songs, most common first (they are drawn Zipf-wise). */
  readonly common: readonly string[];
  /**
   * Line templates. Slots: {n} a noun phrase, {v} a verb, {a} an adjective, {p} a city,
   * {t} a time phrase. Templates are written so that any word of a list fits its slot
   * grammatically (invariable adjectives, nouns with their article where the language needs one).
   */
  readonly templates: readonly string[];
  /** Short chorus openers (templates too); the song title is usually taken from the hook. */
  readonly hooks: readonly string[];
  readonly nouns: readonly string[];
  readonly verbs: readonly string[];
  readonly adjectives: readonly string[];
  readonly times: readonly string[];
  /** Non-lexical vocal lines for bridges and outros. */
  readonly fillers: readonly string[];
  /** Lines with a religious reference; each names the language's word for God. */
  readonly faith: readonly string[];
  /** Lines that make a song explicit, each with the moderation category it triggers. */
  readonly explicit: ReadonlyArray<{ readonly line: string; readonly category: ModerationCategory }>;
  /** Given names and family names for artists and songwriters. */
  readonly firstNames: readonly string[];
  readonly lastNames: readonly string[];
  /** Countries where artists singing mostly in this language come from (repeats weight them). */
  readonly countries: readonly string[];
}
