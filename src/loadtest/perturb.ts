/**
 * How screening texts are made from a lyric: an excerpt starting at a word boundary, then one of
 * the edits a screener's input shows — reformatting (case, punctuation, line breaks), character
 * noise (typos: substitutions, insertions, deletions), word edits (dropped, substituted or swapped
 * words), or embedding among unrelated prose. All draws come from the caller's seeded `Rng`.
 * `refrain loadtest` makes its fingerprint requests with these, and bench/quality its query set.
 */
import type { Rng } from '../generate/prng.js';

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Offsets where a word starts (a letter or digit after a non-letter/digit or the start). */
export function wordStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (WORD_CHAR.test(text[i]) && (i === 0 || !WORD_CHAR.test(text[i - 1]))) starts.push(i);
  }
  return starts;
}

/** `length` characters of `body` from a random word start (trailing blanks trimmed), if it is long enough. */
export function excerpt(rng: Rng, body: string, length: number): string | undefined {
  const starts = wordStarts(body).filter((s) => s + length <= body.length);
  if (starts.length === 0) return undefined;
  const s = rng.pick(starts);
  return body.slice(s, s + length).trimEnd();
}

function lineBreaks(rng: Rng, text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  switch (rng.int(0, 3)) {
    case 0:
      return flat;
    case 1:
      return text.replace(/\s*\n\s*/g, ' / ');
    case 2: {
      // Break again every 4–8 words, elsewhere than the original.
      const words = flat.split(' ');
      let out = '';
      let next = rng.int(4, 8);
      words.forEach((w, i) => {
        out += (i === 0 ? '' : i === next ? '\n' : ' ') + w;
        if (i === next) next += rng.int(4, 8);
      });
      return out;
    }
    default:
      return text.replace(/\n/g, '\r\n\r\n');
  }
}

function letterCase(rng: Rng, text: string): string {
  switch (rng.int(0, 3)) {
    case 0:
      return text.toUpperCase();
    case 1:
      return text.toLowerCase();
    case 2:
      return text.toLowerCase().replace(/(^|[^\p{L}])(\p{L})/gu, (_, pre: string, c: string) => pre + c.toUpperCase());
    default:
      return text.replace(/\p{L}+/gu, (w) => (rng.chance(0.3) ? w.toUpperCase() : w.toLowerCase()));
  }
}

const ADDED_PUNCTUATION = [',', '!', '...', ';', ' -', '?', ':'];

function punctuation(rng: Rng, text: string): string {
  if (rng.chance(0.5)) return text.replace(/[^\p{L}\p{N}\s']/gu, '').replace(/ {2,}/g, ' ');
  // Add punctuation after some words and turn quotes and full stops into others.
  return text
    .replace(/'/g, '’')
    .replace(/"/g, rng.chance(0.5) ? '«' : '“')
    .replace(/\./g, () => rng.pick(['!', '...', ';']))
    .replace(/(\p{L})(?=\s)/gu, (c) => (rng.chance(0.15) ? c + rng.pick(ADDED_PUNCTUATION) : c));
}

/** The same words reformatted: line breaks, letter case and punctuation all changed. */
export function reformat(rng: Rng, text: string): string {
  return punctuation(rng, letterCase(rng, lineBreaks(rng, text)));
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `percent`% of the characters (of the original length) substituted, inserted or deleted at random places. */
export function charNoise(rng: Rng, text: string, percent: number): string {
  const chars = [...text];
  const edits = Math.round((chars.length * percent) / 100);
  for (let e = 0; e < edits && chars.length > 1; e++) {
    const at = rng.int(0, chars.length - 1);
    const op = rng.int(0, 2);
    if (op === 0) chars[at] = rng.pick([...LETTERS]);
    else if (op === 1) chars.splice(at, 0, rng.pick([...LETTERS]));
    else chars.splice(at, 1);
  }
  return chars.join('');
}

/**
 * `percent`% of the words edited, each one way: dropped, replaced by a word of `vocabulary`, or
 * swapped with its neighbour. Separators (spaces, line breaks) stay where they were.
 */
export function wordEdits(rng: Rng, text: string, percent: number, vocabulary: readonly string[]): string {
  const parts = text.split(/(\s+)/); // even: words, odd: separators
  const slots = parts.map((_, i) => i).filter((i) => i % 2 === 0 && parts[i] !== '');
  const edits = Math.max(1, Math.round((slots.length * percent) / 100));
  const chosen = new Set<number>();
  while (chosen.size < Math.min(edits, slots.length)) chosen.add(rng.int(0, slots.length - 1));
  for (const k of chosen) {
    const i = slots[k];
    const op = rng.int(0, 2);
    if (op === 0) parts[i] = '';
    else if (op === 1) parts[i] = rng.pick(vocabulary);
    else {
      const j = slots[k + 1 < slots.length ? k + 1 : k - 1];
      if (j !== undefined) [parts[i], parts[j]] = [parts[j], parts[i]];
    }
  }
  return parts.join('').replace(/ {2,}/g, ' ').trim();
}

/** `excerpt` in the middle of about `proseLength` characters of the prose paragraphs drawn from `pool`. */
export function embed(rng: Rng, excerptText: string, pool: readonly string[], proseLength = 800): string {
  let prose = '';
  while (prose.length < proseLength) prose += (prose ? (rng.chance(0.5) ? ' ' : '\n\n') : '') + rng.pick(pool);
  const cut = prose.lastIndexOf(' ', proseLength);
  prose = prose.slice(0, cut > proseLength / 2 ? cut : proseLength);
  const middle = prose.indexOf(' ', Math.floor(prose.length / 2));
  const at = middle < 0 ? prose.length : middle;
  return `${prose.slice(0, at)}\n\n${excerptText}\n\n${prose.slice(at + 1)}`;
}
