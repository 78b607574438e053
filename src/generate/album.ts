/**
 * Albums: release type and size, the release date on the artist's career line, label and cover
 * art, and the catalog line. Tracks copy the album's name, covers and genre.
 */
import type { ArtistContext } from './artist.js';
import { partialDate, updatedTime } from './dates.js';
import { pickWeighted, weightTable } from './distributions.js';
import { genreList, type GenreList } from './genres.js';
import { ALBUM_ID_BASE } from './ids.js';
import { albumTitle, label, type ReleaseType } from './names.js';
import { Rng, deriveSeed } from './prng.js';

/** Stream number of album-level draws in `deriveSeed`. */
const STREAM = 2;

const COVER_SIZES = ['100x100', '350x350', '500x500', '800x800'] as const;

/** Release types by share of releases, with the track counts each usually has. */
const RELEASE_TYPES = weightTable<readonly [ReleaseType, number, number]>([
  [['Album', 8, 14], 45],
  [['Single', 1, 3], 30],
  [['EP', 4, 6], 12],
  [['Compilation', 12, 18], 6],
  [['Live', 10, 16], 7],
]);

export interface AlbumContext {
  readonly id: number;
  readonly name: string;
  readonly type: ReleaseType;
  readonly releaseDate: string;
  readonly year: number;
  /** `album_coverart_<size>` fields, copied onto every track. */
  readonly covers: Readonly<Record<string, string>>;
  readonly genres: GenreList;
  readonly trackCount: number;
}

/** The type and size of the artist's next release: its first must be new material. */
export function planRelease(seed: number, n: number, artist: ArtistContext): { type: ReleaseType; tracks: number } {
  const rng = new Rng(deriveSeed(seed, n, STREAM + 16));
  let [type, lo, hi] = pickWeighted(rng, RELEASE_TYPES);
  // A live album or a best-of needs songs to revisit.
  if ((type === 'Compilation' && artist.released.length < 8) || (type === 'Live' && artist.released.length < 4)) [type, lo, hi] = ['Album', 8, 14];
  return { type, tracks: rng.int(lo, hi) };
}

/** Draws the n-th album (n from 1); `lead` is the title of its first track. */
export function makeAlbum(
  seed: number,
  n: number,
  artist: ArtistContext,
  plan: { type: ReleaseType; tracks: number },
  lead: string,
): { context: AlbumContext; record: Record<string, unknown> } {
  const rng = new Rng(deriveSeed(seed, n, STREAM));
  const id = ALBUM_ID_BASE + n;
  const year = artist.year;
  // Careers move on: the next release comes out the same year or up to three years later.
  artist.year = Math.min(artist.lastYear, year + rng.int(0, 3));
  const releaseDate = partialDate(rng, year, 0.85, 0.05);
  const name = albumTitle(rng, plan.type, artist.name.name, lead, year);
  const publisher = label(rng, artist.name.name);
  const covers: Record<string, string> = {};
  // Most releases have every size, older ones only the small ones, some none at all.
  const art = rng.float();
  const sizes = art < 0.08 ? 0 : art < 0.2 ? 2 : 4;
  COVER_SIZES.forEach((size, i) => {
    covers[`album_coverart_${size}`] = i < sizes ? `https://covers.refrain.invalid/${id}/${size.split('x')[0]}.jpg` : '';
  });
  const genres = genreList([rng.pick(artist.primary)]);
  const record: Record<string, unknown> = {
    type: 'album',
    album_id: id,
    album_name: name,
    artist_id: artist.id,
    artist_name: artist.name.name,
    album_rating: Math.min(100, Math.max(1, Math.round(10 + 30 * Math.log10(artist.fame) + rng.int(-10, 10)))),
    album_release_date: releaseDate,
    album_release_type: plan.type,
    album_label: publisher,
    album_copyright: `© ${year} ${publisher}`,
    album_pline: `℗ ${year} ${publisher}`,
    ...covers,
    primary_genres: genres,
    updated_time: updatedTime(rng, year),
  };
  return { context: { id, name, type: plan.type, releaseDate, year, covers, genres, trackCount: plan.tracks }, record };
}
