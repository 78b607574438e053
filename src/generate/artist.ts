/**
 * Artists: the record written to the catalog and the context their albums and tracks draw on
 * (language, country, genres, fame, career years, the recordings released so far).
 */
import { LAST_YEAR, partialDate, updatedTime, yearOf } from './dates.js';
import { pareto, pickWeighted, weightTable } from './distributions.js';
import { GENRE_FAMILIES, genreList, type GenreFamily, type MusicGenre } from './genres.js';
import { ARTIST_ID_BASE, mbid } from './ids.js';
import { artistName, type ArtistName } from './names.js';
import { Rng, deriveSeed } from './prng.js';
import { LANGUAGES, type LanguagePack } from './words/index.js';

/** Stream number of artist-level draws in `deriveSeed`. */
const STREAM = 1;
/** At most this many earlier recordings are remembered per artist: keeps memory flat for prolific artists. */
const MAX_REMEMBERED = 400;

/** A recording released earlier by the current artist, which later versions can point at. */
export interface Released {
  readonly commontrackId: number;
  readonly firstReleaseDate: string;
}

export interface ArtistContext {
  readonly id: number;
  readonly name: ArtistName;
  readonly lang: LanguagePack;
  readonly country: string;
  readonly primary: readonly MusicGenre[];
  /** Heavy-tailed popularity (≥ 1); multiplies the favourites of the artist's tracks. */
  readonly fame: number;
  readonly explicitRate: number;
  readonly instrumentalRate: number;
  readonly albumsPlanned: number;
  /** Year of the artist's next release; advances as albums come out. */
  year: number;
  readonly lastYear: number;
  readonly released: Released[];
}

const FAMILIES = weightTable(GENRE_FAMILIES.map((f) => [f, f.weight] as const));
const LATIN = GENRE_FAMILIES.find((f) => f.primary[0].music_genre_id === 12) as GenreFamily;

function clamp(n: number, lo: number, hi: number): number {
  return n < lo ? lo : n > hi ? hi : n;
}

/** Remembers a release of the current artist (bounded, see MAX_REMEMBERED). */
export function remember(artist: ArtistContext, released: Released): void {
  if (artist.released.length < MAX_REMEMBERED) artist.released.push(released);
}

/** Draws the n-th artist (n from 1) and its catalog line. */
export function makeArtist(seed: number, n: number): { context: ArtistContext; record: Record<string, unknown> } {
  const rng = new Rng(deriveSeed(seed, n, STREAM));
  const id = ARTIST_ID_BASE + n;
  const lang = pickWeighted(rng, LANGUAGES);
  const name = artistName(rng, lang);
  const country = rng.pick(lang.countries);
  const family = (lang.code === 'es' || lang.code === 'pt') && rng.chance(0.5) ? LATIN : pickWeighted(rng, FAMILIES);
  const primary = [family.primary[0]];
  if (family.primary.length > 1 && rng.chance(0.6)) primary.push(rng.pick(family.primary.slice(1)));
  const secondary = rng.chance(0.6) ? [rng.pick(family.secondary)] : [];
  const fame = pareto(rng, 1.2);
  const rating = clamp(Math.round(10 + 30 * Math.log10(fame)), 1, 100);

  // Careers skew recent, as catalogs do: most artists started in the last twenty years.
  const beginYear = LAST_YEAR - 1 - Math.floor(Math.pow(rng.float(), 1.6) * 60);
  const known = rng.float();
  const beginDate = known < 0.15 ? '0000-00-00' : partialDate(rng, beginYear, 0.45, 0.25);
  const ended = !name.person && beginDate !== '0000-00-00' && rng.chance(0.12);
  const lastYear = ended ? Math.min(LAST_YEAR, beginYear + rng.int(2, 25)) : LAST_YEAR;
  const endDate = ended ? partialDate(rng, lastYear, 0.3, 0.2) : '0000-00-00';
  const albumsPlanned = clamp(Math.round(pareto(rng, 1.5) * (1 + 0.5 * Math.log10(fame))), 1, 40);
  const hipHop = family.primary[0].music_genre_id === 18;
  const mostlyInstrumental = [7, 11, 16].includes(family.primary[0].music_genre_id);

  const record: Record<string, unknown> = { type: 'artist', artist_id: id, artist_name: name.name };
  if (rng.chance(0.3)) record.artist_mbid = mbid(rng);
  if (name.translation) record.artist_name_translation_list = [{ artist_name_translation: name.translation }];
  record.artist_country = country;
  if (name.aliases.length > 0) record.artist_alias_list = name.aliases.map((artist_alias) => ({ artist_alias }));
  record.artist_rating = rating;
  record.primary_genres = genreList(primary);
  record.secondary_genres = genreList(secondary);
  if (rng.chance(0.25)) record.artist_website_url = `https://artists.refrain.invalid/${id}`;
  if (rng.chance(0.002)) record.restricted = 1;
  record.begin_date = beginDate;
  record.end_date = endDate;
  record.updated_time = updatedTime(rng, yearOf(beginDate) || 2010);

  const context: ArtistContext = {
    id,
    name,
    lang,
    country,
    primary,
    fame,
    explicitRate: hipHop ? 0.45 : 0.08,
    instrumentalRate: mostlyInstrumental ? 0.25 : 0.03,
    albumsPlanned,
    year: Math.min(lastYear, Math.max(beginYear, 1960) + rng.int(0, 2)),
    lastYear,
    released: [],
  };
  return { context, record };
}
