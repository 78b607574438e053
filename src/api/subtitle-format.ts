/**
 * Subtitle bodies in the three formats of track.subtitle.get (docs/design.md §3): `lrc` as stored,
 * `mxm` as a JSON string of `[{text, time:{total, minutes, seconds, hundredths}}]`, and `dfxp` as
 * W3C TTML. Pure functions of the LRC text.
 */
import { escapeXml } from '../util/xml.js';

export interface LrcLine {
  /** Seconds from the start, to the hundredth. */
  time: number;
  text: string;
}

const LRC_LINE = /^\s*\[(\d{1,3}):(\d{1,2}(?:[.:]\d{1,3})?)\]\s?(.*)$/;

/** Timed lines of an LRC body; metadata tags ([ar:…]) and untimed lines are skipped. */
export function parseLrc(body: string): LrcLine[] {
  const lines: LrcLine[] = [];
  for (const raw of body.split(/\r?\n/)) {
    const m = LRC_LINE.exec(raw);
    if (!m) continue;
    const seconds = Number(m[2].replace(':', '.'));
    lines.push({ time: Math.round((Number(m[1]) * 60 + seconds) * 100) / 100, text: m[3].trimEnd() });
  }
  return lines;
}

export function toMxm(lines: LrcLine[]): string {
  return JSON.stringify(
    lines.map((l) => {
      const hundredths = Math.round(l.time * 100);
      return {
        text: l.text,
        time: {
          total: hundredths / 100,
          minutes: Math.floor(hundredths / 6000),
          seconds: Math.floor((hundredths % 6000) / 100),
          hundredths: hundredths % 100,
        },
      };
    }),
  );
}

const clock = (t: number): string => {
  const cs = Math.round(t * 100);
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(cs % 100)}`;
};

/** TTML: each line lasts until the next one starts; the last until `length` (or 4 s more). */
export function toDfxp(lines: LrcLine[], language: string, length: number): string {
  const ps = lines.map((l, i) => {
    const end = i + 1 < lines.length ? lines[i + 1].time : Math.max(length, l.time + 4);
    return `      <p begin="${clock(l.time)}" end="${clock(end)}">${escapeXml(l.text)}</p>`;
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="${escapeXml(language || 'und')}">`,
    '  <body>',
    '    <div>',
    ...ps,
    '    </div>',
    '  </body>',
    '</tt>',
  ].join('\n');
}
