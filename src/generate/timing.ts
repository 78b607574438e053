/**
 * Synchronised lyrics: line timings for the LRC subtitle and word offsets for the richsync, both
 * computed in integer centiseconds so the two always agree exactly (an LRC time is written with
 * two decimals; richsync `ts` is the same centisecond count divided by 100).
 */
import type { Rng } from './prng.js';
import type { Section } from './lyrics.js';
import { lrcTime } from '../catalog/synced.js';

export { lrcTime };

/** The shortest time a line is sung, in centiseconds: enough for a dozen words with distinct offsets. */
const MIN_LINE_CS = 200;
const MIN_INTRO_CS = 300;
const MIN_OUTRO_CS = 200;
const MIN_GAP_CS = 100;

/** One sung line: start (`ts`), next line's start or the line's end (`te`), and its sung length. */
export interface TimedLine {
  readonly text: string;
  readonly tsCs: number;
  readonly teCs: number;
  readonly sungCs: number;
}

/** The shortest track (whole seconds) in which `lines` lines over `sections` sections fit. */
export function minTrackLength(lines: number, sections: number): number {
  return Math.ceil((lines * MIN_LINE_CS + MIN_INTRO_CS + MIN_OUTRO_CS + sections * MIN_GAP_CS) / 100);
}

/**
 * Spreads the lyric lines over a track of `trackLength` seconds: an intro, lines lasting in
 * proportion to their length, a short break between sections, and an outro, so the last line
 * starts and ends before the track does. Requires trackLength ≥ minTrackLength(...).
 */
export function timeLines(rng: Rng, sections: readonly Section[], trackLength: number): TimedLine[] {
  let count = 0;
  let weight = 0;
  for (const s of sections) for (const l of s.lines) { count++; weight += 40 + l.length; }
  const total = trackLength * 100;
  const gaps = sections.length - 1;
  let intro = rng.int(MIN_INTRO_CS, 2000);
  let outro = rng.int(MIN_OUTRO_CS, 1500);
  let gap = rng.int(MIN_GAP_CS, 500);
  if (total - intro - outro - gaps * gap < count * MIN_LINE_CS) {
    // A dense song in a short track: fall back to the tightest layout, which always fits.
    intro = MIN_INTRO_CS;
    outro = MIN_OUTRO_CS;
    gap = MIN_GAP_CS;
  }
  const extra = total - intro - outro - gaps * gap - count * MIN_LINE_CS;
  const out: TimedLine[] = [];
  let t = intro;
  sections.forEach((section, si) => {
    if (si > 0) t += gap;
    for (const text of section.lines) {
      const sung = MIN_LINE_CS + Math.floor((extra * (40 + text.length)) / weight);
      out.push({ text, tsCs: t, teCs: t + sung, sungCs: sung });
      t += sung;
    }
  });
  // te is the next line's start (the spec's richsync layout); only the last line ends on its own.
  for (let i = 0; i + 1 < out.length; i++) out[i] = { ...out[i], teCs: out[i + 1].tsCs };
  return out;
}

/** The LRC subtitle body: one `[mm:ss.xx] text` line per sung line. */
export function lrcBody(lines: readonly TimedLine[]): string {
  return lines.map((l) => `${lrcTime(l.tsCs)} ${l.text}`).join('\n');
}

/**
 * Word offsets of one line in centiseconds from its start, one per token of `tokens` (words and
 * the single spaces between them): strictly increasing, the last one below the sung length.
 */
function offsets(rng: Rng, words: readonly string[], sungCs: number): number[] {
  const tokens = words.length * 2 - 1;
  const budget = Math.max(tokens, Math.floor(sungCs * 0.9) - 1);
  const weights = words.map((w) => w.length + 2 + rng.int(0, 3));
  const sum = weights.reduce((a, b) => a + b, 0);
  const spare = budget - tokens;
  const out: number[] = [];
  let o = 0;
  words.forEach((_, i) => {
    out.push(o);
    o += 1 + Math.floor((spare * weights[i]) / sum);
    if (i + 1 < words.length) out.push(o++);
  });
  return out;
}

/**
 * The richsync body (a JSON string, as the API returns it): per line `ts`, `te`, the word groups
 * and single spaces `l` with offsets `o` from `ts`, and the full text `x`. Written by hand rather
 * than with JSON.stringify over objects: this is the generator's hottest loop.
 */
export function richsyncBody(rng: Rng, lines: readonly TimedLine[]): string {
  const parts: string[] = [];
  for (const line of lines) {
    const words = line.text.split(' ');
    const offs = offsets(rng, words, line.sungCs);
    let l = '';
    for (let i = 0; i < words.length; i++) {
      if (i > 0) l += `,{"c":" ","o":${offs[2 * i - 1] / 100}},`;
      l += `{"c":${JSON.stringify(words[i])},"o":${offs[2 * i] / 100}}`;
    }
    parts.push(`{"ts":${line.tsCs / 100},"te":${line.teCs / 100},"l":[${l}],"x":${JSON.stringify(line.text)}}`);
  }
  return `[${parts.join(',')}]`;
}
