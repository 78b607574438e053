/**
 * The fixed genre table of generated catalogs. Ids, parents and spellings follow the store genre
 * tree the reference responses use (Pop=14, Rock=21 and Alternative=20 under Music=34, Arena
 * Rock=1146 under Rock, Electronica=1058 under Electronic), so every track naming a genre names it
 * identically across the catalog.
 */

/** One `music_genre` object as the import format (and the API) writes it. */
export interface MusicGenre {
  music_genre_id: number;
  music_genre_parent_id: number;
  music_genre_name: string;
  music_genre_name_extended: string;
  music_genre_vanity: string;
}

/** The `{ music_genre_list }` wrapper the API uses for primary and secondary genres. */
export interface GenreList {
  music_genre_list: Array<{ music_genre: MusicGenre }>;
}

const MUSIC = 34;

function top(id: number, name: string): MusicGenre {
  const vanity = name.replace(/[^A-Za-z0-9]+/g, '-');
  return { music_genre_id: id, music_genre_parent_id: MUSIC, music_genre_name: name, music_genre_name_extended: name, music_genre_vanity: vanity };
}

function sub(id: number, parent: MusicGenre, name: string): MusicGenre {
  const extended = `${parent.music_genre_name} / ${name}`;
  const vanity = extended.replace(/[^A-Za-z0-9]+/g, '-');
  return { music_genre_id: id, music_genre_parent_id: parent.music_genre_id, music_genre_name: name, music_genre_name_extended: extended, music_genre_vanity: vanity };
}

const pop = top(14, 'Pop');
const rock = top(21, 'Rock');
const alternative = top(20, 'Alternative');
const electronic = top(7, 'Electronic');
const dance = top(17, 'Dance');
const hipHop = top(18, 'Hip-Hop/Rap');
const rnb = top(15, 'R&B/Soul');
const country = top(6, 'Country');
const latin = top(12, 'Latin');
const singer = top(10, 'Singer/Songwriter');
const jazz = top(11, 'Jazz');
const blues = top(2, 'Blues');
const reggae = top(24, 'Reggae');
const world = top(19, 'World');
const soundtrack = top(16, 'Soundtrack');

/**
 * Families of related genres: an artist takes one family, its primary genres come from the
 * family's head and subgenres, its secondary ones from the family's neighbours.
 */
export interface GenreFamily {
  readonly primary: readonly MusicGenre[];
  readonly secondary: readonly MusicGenre[];
  /** Relative share of artists in this family. */
  readonly weight: number;
}

export const GENRE_FAMILIES: readonly GenreFamily[] = [
  { primary: [pop, sub(1133, pop, 'Pop/Rock'), sub(1131, pop, 'Adult Contemporary'), sub(1135, pop, 'Teen Pop')], secondary: [dance, rnb, rock], weight: 30 },
  { primary: [rock, sub(1146, rock, 'Arena Rock'), sub(1152, rock, 'Hard Rock'), sub(1157, rock, 'Rock & Roll')], secondary: [alternative, pop, blues], weight: 18 },
  { primary: [alternative, sub(1004, alternative, 'Indie Rock'), sub(1006, alternative, 'Punk'), sub(1005, alternative, 'New Wave')], secondary: [rock, pop], weight: 14 },
  { primary: [electronic, sub(1058, electronic, 'Electronica'), sub(1056, electronic, 'Ambient')], secondary: [dance, pop], weight: 8 },
  { primary: [dance, sub(1048, dance, 'House'), sub(1050, dance, 'Techno')], secondary: [electronic, pop], weight: 6 },
  { primary: [hipHop], secondary: [rnb, pop], weight: 10 },
  { primary: [rnb, sub(1136, rnb, 'Contemporary R&B'), sub(1139, rnb, 'Funk'), sub(1143, rnb, 'Soul')], secondary: [pop, hipHop, jazz], weight: 7 },
  { primary: [country], secondary: [singer, rock], weight: 4 },
  { primary: [latin, sub(1117, latin, 'Pop Latino'), sub(1119, latin, 'Urbano latino')], secondary: [pop, dance, world], weight: 6 },
  { primary: [singer], secondary: [pop, alternative, country], weight: 4 },
  { primary: [jazz, blues], secondary: [rnb, world], weight: 2 },
  { primary: [reggae, world], secondary: [pop, latin], weight: 2 },
  { primary: [soundtrack], secondary: [electronic, pop], weight: 1 },
];

/** Wraps genres in the API's list shape. */
export function genreList(genres: readonly MusicGenre[]): GenreList {
  return { music_genre_list: genres.map((music_genre) => ({ music_genre })) };
}
