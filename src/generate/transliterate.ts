/**
 * Transliterations for `artist_name_translation_list`: Cyrillic (ru) by letter rules for any Latin
 * name, and katakana (ja) for stage names built from Japanese-compatible syllables, where the
 * transcription is exact syllable by syllable.
 */

// Digraphs first: "sh" must become ш, not с + х.
const CYRILLIC_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['sch', 'ш'], ['sh', 'ш'], ['ch', 'ч'], ['zh', 'ж'], ['th', 'т'], ['ph', 'ф'], ['ck', 'к'], ['ts', 'ц'],
  ['ee', 'и'], ['oo', 'у'], ['ya', 'я'], ['yu', 'ю'], ['kh', 'х'], ['qu', 'кв'],
];
const CYRILLIC_LETTERS: Readonly<Record<string, string>> = {
  a: 'а', b: 'б', c: 'к', d: 'д', e: 'е', f: 'ф', g: 'г', h: 'х', i: 'и', j: 'дж', k: 'к', l: 'л', m: 'м',
  n: 'н', o: 'о', p: 'п', q: 'к', r: 'р', s: 'с', t: 'т', u: 'у', v: 'в', w: 'у', x: 'кс', y: 'й', z: 'з',
};

const VOWELS = 'aeiou';

/** A Russian-style transliteration of a Latin-script name (diacritics dropped, capitals kept). */
export function toCyrillic(name: string): string {
  const plain = name.normalize('NFD').replace(/\p{M}/gu, '');
  let out = '';
  for (let i = 0; i < plain.length; ) {
    const rest = plain.slice(i).toLowerCase();
    const pair = CYRILLIC_PAIRS.find(([latin]) => rest.startsWith(latin));
    // y is a consonant (й) only before a vowel; elsewhere it sounds like и ("Lily" -> "Лили").
    const y = rest[0] === 'y' && !pair ? (rest.length > 1 && VOWELS.includes(rest[1]) ? 'й' : 'и') : undefined;
    const [latin, cyr] = pair ?? [rest[0], y ?? CYRILLIC_LETTERS[rest[0]] ?? plain[i]];
    const upper = plain[i] !== plain[i].toLowerCase();
    out += upper ? cyr.charAt(0).toUpperCase() + cyr.slice(1) : cyr;
    i += latin.length;
  }
  return out;
}

/** Romanised syllables and their katakana; stage names are strings of these. */
export const KANA: ReadonlyArray<readonly [string, string]> = [
  ['ka', 'カ'], ['ki', 'キ'], ['ku', 'ク'], ['ke', 'ケ'], ['ko', 'コ'], ['sa', 'サ'], ['shi', 'シ'], ['su', 'ス'],
  ['se', 'セ'], ['so', 'ソ'], ['ta', 'タ'], ['chi', 'チ'], ['te', 'テ'], ['to', 'ト'], ['na', 'ナ'], ['ni', 'ニ'],
  ['no', 'ノ'], ['ha', 'ハ'], ['hi', 'ヒ'], ['ma', 'マ'], ['mi', 'ミ'], ['mo', 'モ'], ['ya', 'ヤ'], ['yu', 'ユ'],
  ['yo', 'ヨ'], ['ra', 'ラ'], ['ri', 'リ'], ['ru', 'ル'], ['re', 'レ'], ['ro', 'ロ'], ['a', 'ア'], ['e', 'エ'],
  ['o', 'オ'], ['da', 'ダ'], ['de', 'デ'], ['do', 'ド'], ['ga', 'ガ'], ['go', 'ゴ'], ['ba', 'バ'], ['be', 'ベ'],
  ['za', 'ザ'], ['ze', 'ゼ'], ['ri', 'リ'], ['mu', 'ム'], ['ne', 'ネ'], ['n', 'ン'],
];

/** Katakana for a sequence of `KANA` indices. */
export function katakanaOf(syllables: readonly number[]): string {
  return syllables.map((i) => KANA[i][1]).join('');
}

/** The romanised name for a sequence of `KANA` indices, capitalised. */
export function romajiOf(syllables: readonly number[]): string {
  const s = syllables.map((i) => KANA[i][0]).join('');
  return s.charAt(0).toUpperCase() + s.slice(1);
}
