/**
 * Text normalisation shared by indexing and querying (docs/index.md): Unicode compatibility
 * decomposition, diacritics dropped, case folded, apostrophes removed inside words, every other run
 * of non-letters/non-digits (punctuation, line breaks, symbols) turned into one space. Scripts keep
 * their letters, so Cyrillic, Greek, CJK and the rest index and match as themselves.
 *
 * Names (titles, artists, writers) also go through `foldName`, which transliterates Cyrillic, Greek
 * and katakana to Latin letters: a name typed in one script then still meets its transliteration.
 */

const MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’ʼ`´]/g;
const APOSTROPHE = /^['’ʼ`´]$/;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

/** Normalised form of any text: see the module comment. Idempotent. */
export function normalizeText(text: string): string {
  return normalizeNarrow(text) ?? normalizeWide(text);
}

/** normalizeText of a text normalizeNarrow does not take (a character's normal form past U+00FF). */
export function normalizeWide(text: string): string {
  return normalizeLatin(text) ?? normalizeAny(text);
}

function normalizeAny(text: string): string {
  let s = text.toLowerCase().normalize('NFKD').replace(MARKS, '').replace(APOSTROPHES, '');
  // ß and a few ligatures only fold under upper-casing ("ß" → "SS" → "ss").
  if (/[ßﬀ-ﬆ]/.test(s)) s = s.replace(/[ßﬀ-ﬆ]/g, (c) => c.toUpperCase().toLowerCase());
  return s.replace(SEPARATORS, ' ').trim();
}

/**
 * What each character below U+0250 (ASCII, Latin-1, Latin Extended-A/B) becomes, precomputed with
 * `normalizeAny`: a folded string, '' (apostrophes) or ' ' (separators).
 */
const LATIN_LIMIT = 0x250;
const LATIN: readonly string[] = Array.from({ length: LATIN_LIMIT }, (_, c) => {
  const ch = String.fromCharCode(c);
  if (APOSTROPHE.test(ch)) return '';
  return normalizeAny(ch) || ' ';
});
const SPACE = 32;
const DROP = -1;
const MULTI = -2;
/** LATIN as numbers: the one output code unit, SPACE, DROP, or MULTI (look the string up). */
const LATIN_CODE = Int32Array.from(LATIN, (m) => (m === '' ? DROP : m.length === 1 ? m.charCodeAt(0) : MULTI));
const UTF16 = new TextDecoder('utf-16le');
let latinOut = new Uint16Array(4096);
/** LATIN_CODE where the output stays below U+0100, WIDE where it does not (MULTI only for strings that do). */
const WIDE = -3;
const NARROW_CODE = LATIN_CODE.map((code, c) => (code > 0xff || (code === MULTI && [...LATIN[c]].some((m) => m.charCodeAt(0) > 0xff)) ? WIDE : code));
let narrowOut = Buffer.allocUnsafe(4096);

/**
 * normalizeNarrow's table, for a native folder that gives its answers (kernel/native.ts): per
 * character below U+0250 its output code unit, SPACE, DROP, MULTI or WIDE, and the output of each
 * MULTI character.
 */
export const NARROW_TABLE: { codes: Int32Array; multi: readonly string[] } = { codes: NARROW_CODE, multi: LATIN };

/**
 * Folds `text` through a table of LATIN codes into `out`: the number of code units written, or -1
 * when a character lies beyond the table (U+0250 and up, but ’ and ʼ, which are dropped) or its code
 * is WIDE. The one loop of the two fast paths below.
 */
function foldLatin(text: string, codes: Int32Array, out: Uint8Array | Uint16Array): number {
  let n = 0;
  let space = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= LATIN_LIMIT) {
      if (c === 0x2019 || c === 0x02bc) continue;
      return -1;
    }
    const code = codes[c];
    if (code === SPACE) {
      if (!space) out[n++] = SPACE;
      space = true;
    } else if (code >= 0) {
      out[n++] = code;
      space = false;
    } else if (code === MULTI) {
      const m = LATIN[c];
      for (let k = 0; k < m.length; k++) out[n++] = m.charCodeAt(k);
      space = false;
    } else if (code === WIDE) {
      return -1;
    }
  }
  return n > 0 && out[n - 1] === SPACE ? n - 1 : n;
}

/**
 * normalizeLatin for the commonest text, whose normal form is all below U+0100 (English, most
 * Western European lyrics): written as bytes and made a one-byte string, which is cheaper to build
 * than the UTF-16 decoder's and to read (verification hashes every character of a lyric). Undefined
 * when an output character is wider.
 */
function normalizeNarrow(text: string): string | undefined {
  if (narrowOut.length < text.length * 2 + 8) narrowOut = Buffer.allocUnsafe(text.length * 2 + 8);
  const n = foldLatin(text, NARROW_CODE, narrowOut);
  return n < 0 ? undefined : narrowOut.toString('latin1', 0, n);
}

/** The fast path for text whose characters all fall below U+0250 (and ’); undefined otherwise. */
function normalizeLatin(text: string): string | undefined {
  if (latinOut.length < text.length * 2 + 8) latinOut = new Uint16Array(text.length * 2 + 8);
  const n = foldLatin(text, LATIN_CODE, latinOut);
  return n < 0 ? undefined : UTF16.decode(latinOut.subarray(0, n));
}

/** Han, kana and Hangul: scripts written without spaces between words. */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;
/** Whether a normalised text holds a script written without spaces (wordsOf cuts its runs into pairs). */
export const hasUnspaced = (normalized: string): boolean => UNSPACED.test(normalized);
const UNSPACED_RUN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}ー]+/gu;

/**
 * Words of a normalised text. Runs of a script written without spaces are cut into overlapping
 * character pairs (a single character stays itself), the usual way to index CJK without a dictionary.
 */
export function wordsOf(normalized: string): string[] {
  if (!normalized) return [];
  if (!UNSPACED.test(normalized)) return normalized.split(' ');
  const out: string[] = [];
  for (const word of normalized.split(' ')) {
    if (!UNSPACED.test(word)) {
      out.push(word);
      continue;
    }
    let last = 0;
    for (const m of word.matchAll(UNSPACED_RUN)) {
      if (m.index > last) out.push(word.slice(last, m.index));
      const run = m[0];
      if (run.length === 1) out.push(run);
      for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
      last = m.index + run.length;
    }
    if (last < word.length) out.push(word.slice(last));
  }
  return out;
}

// Transliteration of names to Latin letters (after normalizeText: lower case, no diacritics).
const CYRILLIC: Readonly<Record<string, string>> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch',
  ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya', і: 'i', ї: 'yi', є: 'ye', ґ: 'g',
};
const GREEK: Readonly<Record<string, string>> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm', ν: 'n', ξ: 'x',
  ο: 'o', π: 'p', ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
};
const KATAKANA_ROWS: ReadonlyArray<readonly [string, string]> = [
  ['アイウエオ', 'a i u e o'], ['カキクケコ', 'ka ki ku ke ko'], ['ガギグゲゴ', 'ga gi gu ge go'],
  ['サシスセソ', 'sa shi su se so'], ['ザジズゼゾ', 'za ji zu ze zo'], ['タチツテト', 'ta chi tsu te to'],
  ['ダヂヅデド', 'da ji zu de do'], ['ナニヌネノ', 'na ni nu ne no'], ['ハヒフヘホ', 'ha hi fu he ho'],
  ['バビブベボ', 'ba bi bu be bo'], ['パピプペポ', 'pa pi pu pe po'], ['マミムメモ', 'ma mi mu me mo'],
  ['ヤユヨ', 'ya yu yo'], ['ラリルレロ', 'ra ri ru re ro'], ['ワヲン', 'wa o n'],
];
const KANA: Readonly<Record<string, string>> = Object.fromEntries(
  KATAKANA_ROWS.flatMap(([kana, latin]) => {
    const sounds = latin.split(' ');
    // Hiragana sits 0x60 below katakana, letter for letter.
    return [...kana].flatMap((k, i) => [[k, sounds[i]], [String.fromCharCode(k.charCodeAt(0) - 0x60), sounds[i]]]);
  }),
);
const FOLD_TABLE: Readonly<Record<string, string>> = { ...CYRILLIC, ...GREEK, ...KANA, ー: '' };
const FOLDABLE = /[\u0370-\u03ff\u0400-\u04ff\u3040-\u30ff]/;

/** A normalised name transliterated to Latin letters where a table knows the script. */
export function foldName(normalized: string): string {
  if (!FOLDABLE.test(normalized)) return normalized;
  let out = '';
  for (const c of normalized) out += FOLD_TABLE[c] ?? c;
  return out;
}

/** normalizeText then foldName: the form every name is indexed and queried in. */
export function normalizeName(name: string): string {
  return foldName(normalizeText(name));
}
