/**
 * Names: artists (people, stage names, bands, featuring credits) with their aliases and
 * transliterations, songwriters, labels and album titles.
 */
import { CITIES } from './entities.js';
import type { Rng } from './prng.js';
import { KANA, katakanaOf, romajiOf, toCyrillic } from './transliterate.js';
import type { LanguagePack } from './words/index.js';

export interface ArtistName {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly translation?: { readonly language: string; readonly translation: string };
  /** True for a single person (who then often writes their own songs). */
  readonly person: boolean;
}

const BAND_ADJECTIVES = [
  'Velvet', 'Silver', 'Electric', 'Midnight', 'Golden', 'Crimson', 'Paper', 'Neon', 'Wild', 'Quiet', 'Broken',
  'Northern', 'Hollow', 'Lucky', 'Glass', 'Iron', 'Young', 'Burning', 'Lonely', 'Secret', 'Amber', 'Static',
];
const BAND_NOUNS = [
  'Wolves', 'Lights', 'Rivers', 'Ghosts', 'Satellites', 'Hearts', 'Shadows', 'Kings', 'Machines', 'Strangers',
  'Horses', 'Echoes', 'Lanterns', 'Tigers', 'Sparrows', 'Mirrors', 'Pilots', 'Foxes', 'Giants', 'Comets',
  'Saints', 'Owls', 'Harbors', 'Parades',
];

/** A person's name in the artist's language. */
export function personName(rng: Rng, lang: LanguagePack): string {
  return `${rng.pick(lang.firstNames)} ${rng.pick(lang.lastNames)}`;
}

function stageSyllables(rng: Rng): number[] {
  const n = KANA.length - 1; // the last syllable is the moraic "n": only at the end of a name
  const out: number[] = [];
  for (let i = rng.int(2, 4); i > 0; i--) out.push(rng.int(0, n - 1));
  if (rng.chance(0.2)) out.push(n);
  return out;
}

/** A typo'd spelling (two letters swapped), as users type artist names. */
function misspell(name: string, rng: Rng): string {
  if (name.length < 4) return name + name.slice(-1);
  const i = rng.int(1, Math.max(1, name.length - 2));
  return name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
}

/** Draws an artist name with its aliases (on about a third) and a transliteration (on some). */
export function artistName(rng: Rng, lang: LanguagePack): ArtistName {
  const kind = rng.float();
  let name: string;
  let person = false;
  const aliases: string[] = [];
  let translation: ArtistName['translation'];
  if (kind < 0.45) {
    person = true;
    const first = rng.pick(lang.firstNames);
    const last = rng.pick(lang.lastNames);
    name = `${first} ${last}`;
    aliases.push(rng.chance(0.5) ? last : `${first.charAt(0)}. ${last}`);
  } else if (kind < 0.6) {
    person = true;
    const syllables = stageSyllables(rng);
    name = romajiOf(syllables);
    aliases.push(name.toUpperCase());
    if (rng.chance(0.7)) translation = { language: 'ja', translation: katakanaOf(syllables) };
  } else if (kind < 0.96) {
    const adjective = rng.pick(BAND_ADJECTIVES);
    const noun = rng.pick(BAND_NOUNS);
    const form = rng.float();
    name = form < 0.5 ? `The ${adjective} ${noun}` : form < 0.8 ? `${adjective} ${noun}` : `${noun} of ${rng.pick(CITIES).name}`;
    aliases.push(name.startsWith('The ') ? name.slice(4) : `The ${name}`);
  } else {
    const a = personName(rng, lang);
    const b = personName(rng, lang);
    name = `${a} feat. ${b}`;
    aliases.push(`${a} & ${b}`, `${a} ft. ${b}`);
  }
  if (!translation && rng.chance(0.15)) translation = { language: 'ru', translation: toCyrillic(name) };
  if (rng.chance(0.2)) aliases.push(misspell(name, rng));
  // Most artists have no alias at all; the drawn ones are kept for about a third of them.
  return { name, aliases: rng.chance(0.35) ? aliases : [], translation, person };
}

/** 1–3 songwriters; a solo artist is often one of them. */
export function writers(rng: Rng, lang: LanguagePack, artist: ArtistName): string[] {
  const out: string[] = [];
  if (artist.person && !artist.name.includes(' feat. ') && rng.chance(0.6)) out.push(artist.name);
  for (let i = rng.int(1, 3) - out.length; i > 0; i--) {
    const name = personName(rng, lang);
    if (!out.includes(name)) out.push(name);
  }
  if (out.length === 0) out.push(personName(rng, lang));
  return out;
}

const LABELS = [
  'Northbound Records', 'Blue Harbor Music', 'Paper Lantern Recordings', 'Saltwater Sound', 'Lighthouse Records',
  'Velvet Ear', 'Crooked Pine Records', 'Silver Meridian', 'Open Field Music', 'Kite & Key Records',
  'Riverstone Records', 'Nightjar Recordings', 'Granite Hill Music', 'Copper Moth', 'Sunday Static',
  'Neon Orchard', 'Half Moon Bay Records', 'Tall Grass Music', 'Red Lantern Audio', 'Orbit Room Records',
];

/** A record label; a few releases are self-published under the artist's name. */
export function label(rng: Rng, artist: string): string {
  return rng.chance(0.08) ? `${artist} Music` : rng.pick(LABELS);
}

export type ReleaseType = 'Album' | 'Single' | 'EP' | 'Compilation' | 'Live';

/** An album title for a release of `type`; `lead` is the title of its first track. */
export function albumTitle(rng: Rng, type: ReleaseType, artist: string, lead: string, year: number): string {
  switch (type) {
    case 'Single':
      return lead;
    case 'EP':
      return rng.chance(0.5) ? `${lead} EP` : `${rng.pick(BAND_ADJECTIVES)} ${rng.pick(BAND_NOUNS)} EP`;
    case 'Compilation':
      return rng.pick(['Greatest Hits', `The Best of ${artist}`, 'The Collection', 'Essentials', `Anthology ${year}`]);
    case 'Live':
      return rng.chance(0.5) ? `Live in ${rng.pick(CITIES).name}` : `Live at the ${rng.pick(BAND_ADJECTIVES)} Theatre`;
    default: {
      const title = rng.chance(0.35) ? lead : rng.chance(0.6) ? `${rng.pick(BAND_ADJECTIVES)} ${rng.pick(BAND_NOUNS)}` : `Songs from ${rng.pick(CITIES).name}`;
      return rng.chance(0.08) ? `${title} (Deluxe Edition)` : title;
    }
  }
}
