/**
 * The stored form of synchronised lyrics: an LRC subtitle or a richsync body kept as its timings and
 * the places of its lines in the track's lyrics, rendered back to the exact text on read.
 *
 * A subtitle or a richsync repeats the lyrics line by line with a time (and, in a richsync, every
 * word and space with its offset): stored as text they were the two largest record kinds of a
 * catalog (bench/footprint). Here a line whose text is a line of the lyrics is stored as that
 * line's number; times are centiseconds, each as the step from the one before; a richsync line cut
 * into its words and single spaces (the common layout) stores only their offsets.
 *
 * Lossless: a form is kept only for a text it renders back to byte for byte, else `encode*` gives
 * `undefined` (store the text as it came): another number format, another key order, fields this
 * form does not know, a line that is not a plain `[mm:ss.xx] text`. Text already written in the
 * form's own layout renders back by construction and is taken as it is read (a richsync by a
 * scanner of that layout, an LRC whose times print as they are written); anything else is encoded,
 * rendered back and compared.
 *
 * Layout (unsigned LEB128 varints; "signed" ones zigzag-coded; text as byte length + UTF-8):
 *   form (1: LRC, 2: richsync) · the lyrics' line count · the synced line count · lines
 *   LRC line:      time step (signed) · text
 *   richsync line: ts step from the previous te (signed) · te − ts (signed) · text ·
 *                  groups × 2 + (1 when the groups are the text's words and single spaces) ·
 *                  [each group's text, unless so] · each group's offset step (signed)
 *   text:          0 then the text, or n ≥ 1 for the lyrics' line n − 1
 */
import { RefrainError } from '../errors.js';

const LRC = 1;
const RICHSYNC = 2;
/** What ends a line of text besides \n: an LRC line's text holds none of them. */
const LINE_BREAK = /[\r\u2028\u2029]/;
/** The longest time this form keeps, in seconds (a day; anything longer is kept as text). */
const MAX_SECONDS = 86_400;
const encoder = new TextEncoder();
// A text may start with U+FEFF: a decoder that drops a leading byte-order mark would lose it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** `00` … `99`. */
const TWO = Array.from({ length: 100 }, (_, n) => (n < 10 ? '0' + n : String(n)));
/** A centisecond count's fraction of a second as JavaScript prints cs / 100: '', '.5', '.07', '.25'. */
const FRACTION = Array.from({ length: 100 }, (_, n) => String(n / 100).slice(1));

/** `[mm:ss.xx]` for a time in centiseconds. */
export function lrcTime(cs: number): string {
  const minutes = Math.floor(cs / 6000);
  return `[${minutes < 100 ? TWO[minutes] : minutes}:${TWO[Math.floor(cs / 100) % 60]}.${TWO[cs % 100]}]`;
}

/** Text that JSON.stringify would escape (quotes, backslashes, control characters, any surrogate, to be safe). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A surrogate not in a pair (UTF-8 cannot carry it: it would read back as U+FFFD). */
const LONE_SURROGATE = /\p{Cs}/u;
/** Text written as it is, a byte a character: printable ASCII but for quotes and backslashes. */
const PRINTABLE_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The stored form of an LRC body given the track's lyrics, or undefined to store the text itself. */
export function encodeLrc(lrc: string, lyrics: string): Uint8Array | undefined {
  const lines = lrc.split('\n');
  const times = new Array<number>(lines.length);
  const texts = new Array<string>(lines.length);
  // Whether every line is written as lrcTime writes its time, and its text survives UTF-8: the
  // form then renders back exactly by construction, and is not rendered to be compared.
  let exact = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const colon = lrcTimeColon(line);
    if (colon < 0) return undefined;
    const minutes = digits(line, 1, colon);
    const seconds = digits(line, colon + 1, colon + 3);
    const hundredths = digits(line, colon + 4, colon + 6);
    if (minutes < 0 || seconds < 0 || hundredths < 0) return undefined;
    const text = line.slice(colon + 8);
    if (LINE_BREAK.test(text)) return undefined;
    times[i] = minutes * 6000 + seconds * 100 + hundredths;
    texts[i] = text;
    // Minutes written with more than two digits and a leading zero, or seconds past 59.
    if ((colon > 3 && line.charCodeAt(1) === 0x30) || seconds >= 60 || LONE_SURROGATE.test(text)) exact = false;
  }
  const places = linePlaces(lyrics);
  const out = new Writer();
  out.uint(LRC).uint(places.count).uint(lines.length);
  let prev = 0;
  for (let i = 0; i < lines.length; i++) {
    out.int(times[i] - prev).text(texts[i], places);
    prev = times[i];
  }
  return exact ? out.bytes() : checked(out.bytes(), lrc, lyrics);
}

/**
 * Where the colon of an LRC line's time is, when the line's punctuation is as this form reads a
 * time, `[m…m:ss.xx] ` (2 to 6 places of minutes; the caller reads the digits); -1 for any other
 * line. By hand rather than with a pattern: subtitles are a fifth of an import's reading, and a
 * pattern's captures cost more than the rest of a line's encoding.
 */
function lrcTimeColon(line: string): number {
  if (line.charCodeAt(0) !== 0x5b) return -1;
  const colon = line.indexOf(':');
  if (colon < 3 || colon > 7) return -1;
  if (line.charCodeAt(colon + 3) !== 0x2e || line.charCodeAt(colon + 6) !== 0x5d || line.charCodeAt(colon + 7) !== 0x20) return -1;
  return colon;
}

/** The ASCII digits of line[from, to) as a number, or -1 when one of them is not a digit. */
function digits(line: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = line.charCodeAt(i) - 0x30;
    if (!(d >= 0 && d <= 9)) return -1;
    n = n * 10 + d;
  }
  return n;
}

interface RichsyncGroup {
  c: string;
  o: number;
}

interface RichsyncLine {
  ts: number;
  te: number;
  l: RichsyncGroup[];
  x: string;
}

/** The stored form of a richsync body (JSON text) given the track's lyrics, or undefined to store the text itself. */
export function encodeRichsync(body: string, lyrics: string): Uint8Array | undefined {
  const places = linePlaces(lyrics);
  return scanned(body, places) ?? parsed(body, places, lyrics);
}

/**
 * The two ways encodeRichsync takes, each alone (tests compare them): reading the text as this form
 * writes it (undefined for any other text), and the general way.
 */
export const scanRichsync = (body: string, lyrics: string): Uint8Array | undefined => scanned(body, linePlaces(lyrics));
export const parseRichsync = (body: string, lyrics: string): Uint8Array | undefined => parsed(body, linePlaces(lyrics), lyrics);

/** The general way: JSON.parse, encode, then render back and compare (anything it cannot keep exactly is refused). */
function parsed(body: string, places: Places, lyrics: string): Uint8Array | undefined {
  let lines: unknown;
  try {
    lines = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!Array.isArray(lines) || !lines.every(isRichsyncLine)) return undefined;
  const out = new Writer();
  out.uint(RICHSYNC).uint(places.count).uint(lines.length);
  let prevEnd = 0;
  for (const { ts, te, l, x } of lines) {
    const tsCs = centis(ts);
    const teCs = centis(te);
    out.int(tsCs - prevEnd).int(teCs - tsCs).text(x, places);
    const words = isWordsAndSpaces(l, x);
    out.uint(l.length * 2 + (words ? 1 : 0));
    if (!words) for (const g of l) out.text(g.c, NO_PLACES);
    let prev = 0;
    for (const g of l) {
      const o = centis(g.o);
      out.int(o - prev);
      prev = o;
    }
    prevEnd = teCs;
  }
  return checked(out.bytes(), body, lyrics);
}

/**
 * A richsync written exactly as this form renders one (the API's own layout: no white space; keys
 * ts, te, l, x in that order; each line cut into its words and single spaces; times as JavaScript
 * prints whole centiseconds; text without escapes, control characters or surrogates: a text
 * with characters outside the BMP takes the general way), read straight from the
 * text into the form. What it accepts renders back to the same text by construction, so it needs
 * neither JSON.parse nor the render check, four fifths of the general way's time on the import's
 * reading thread. Anything else: undefined (the general way decides).
 */
function scanned(body: string, places: Places): Uint8Array | undefined {
  const s = new Scan(body);
  if (!s.take('[')) return undefined;
  const out = new Writer();
  let lines = 0;
  let prevEnd = 0;
  if (!s.take(']')) {
    do {
      if (!s.take('{"ts":')) return undefined;
      const ts = s.seconds();
      if (ts < 0 || !s.take(',"te":')) return undefined;
      const te = s.seconds();
      if (te < 0 || !s.take(',"l":[')) return undefined;
      let groups = 0;
      do {
        if (!s.take('{"c":"')) return undefined;
        const from = s.at;
        const to = s.string();
        if (to < 0 || !s.take(',"o":')) return undefined;
        const o = s.seconds();
        if (o < 0 || !s.take('}')) return undefined;
        s.group(groups++, from, to, o);
      } while (s.take(','));
      if (!s.take('],"x":"')) return undefined;
      const xFrom = s.at;
      const xTo = s.string();
      if (xTo < 0 || !s.take('}') || !s.wordsAndSpaces(groups, xFrom, xTo)) return undefined;
      out.int(ts - prevEnd).int(te - ts).text(body.slice(xFrom, xTo), places);
      out.uint(groups * 2 + 1);
      let prev = 0;
      for (let g = 0; g < groups; g++) {
        out.int(s.offsets[g] - prev);
        prev = s.offsets[g];
      }
      prevEnd = te;
      lines++;
    } while (s.take(','));
    if (!s.take(']')) return undefined;
  }
  if (s.at !== body.length) return undefined;
  return new Writer().uint(RICHSYNC).uint(places.count).uint(lines).append(out).bytes();
}

/** A cursor over a richsync's text for `scanned`, with the groups of the line being read. */
class Scan {
  at = 0;
  /** Each group of the line: where its text starts and ends in the body, and its offset in centiseconds. */
  starts: number[] = [];
  ends: number[] = [];
  offsets: number[] = [];

  constructor(private readonly s: string) {}

  /** Whether `literal` (ASCII) comes next; if so it is read. */
  take(literal: string): boolean {
    if (!this.s.startsWith(literal, this.at)) return false;
    this.at += literal.length;
    return true;
  }

  /**
   * A time written as String(cs / 100) prints a whole number of centiseconds from 0 to MAX_SECONDS
   * (no leading zeros, no trailing zeros in the fraction, no exponent), read as centiseconds; else -1.
   */
  seconds(): number {
    const s = this.s;
    let i = this.at;
    let c = s.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return -1;
    let whole = c;
    i++;
    if (whole !== 0) {
      for (c = s.charCodeAt(i) - 48; c >= 0 && c <= 9; c = s.charCodeAt(++i) - 48) {
        whole = whole * 10 + c;
        if (whole > MAX_SECONDS) return -1;
      }
    }
    let fraction = 0;
    if (s.charCodeAt(i) === 0x2e) {
      const tenths = s.charCodeAt(i + 1) - 48;
      const hundredths = s.charCodeAt(i + 2) - 48;
      if (!(tenths >= 0 && tenths <= 9)) return -1;
      if (hundredths >= 0 && hundredths <= 9) {
        if (hundredths === 0) return -1;
        fraction = tenths * 10 + hundredths;
        i += 3;
      } else {
        if (tenths === 0) return -1;
        fraction = tenths * 10;
        i += 2;
      }
    }
    const next = s.charCodeAt(i) - 48;
    if (next >= 0 && next <= 9) return -1;
    const cs = whole * 100 + fraction;
    if (cs > MAX_SECONDS * 100) return -1;
    this.at = i;
    return cs;
  }

  /**
   * The rest of a string whose opening quote was read: where it ends (its closing quote is read
   * too), or -1 when it holds what JSON escapes or may (a backslash, a control character, a surrogate).
   */
  string(): number {
    const s = this.s;
    for (let i = this.at; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        this.at = i + 1;
        return i;
      }
      if (c === 0x5c || c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) return -1;
    }
    return -1;
  }

  group(g: number, from: number, to: number, offset: number): void {
    this.starts[g] = from;
    this.ends[g] = to;
    this.offsets[g] = offset;
  }

  /** Whether the line's groups are the words and single spaces of its text (body[from, to)), as wordsAndSpaces cuts it. */
  wordsAndSpaces(groups: number, from: number, to: number): boolean {
    const s = this.s;
    let at = from;
    for (let g = 0; g < groups; g++) {
      const start = this.starts[g];
      const length = this.ends[g] - start;
      if (g & 1) {
        if (length !== 1 || s.charCodeAt(start) !== 0x20 || s.charCodeAt(at) !== 0x20) return false;
        at++;
        continue;
      }
      if (at + length > to) return false;
      for (let i = 0; i < length; i++) {
        const c = s.charCodeAt(start + i);
        if (c === 0x20 || c !== s.charCodeAt(at + i)) return false;
      }
      at += length;
      if (at < to && s.charCodeAt(at) !== 0x20) return false;
    }
    return groups % 2 === 1 && at === to;
  }
}

/** The text a stored form stands for, given the same track's lyrics. */
export function decodeSynced(bytes: Uint8Array, lyrics: string): string {
  const { r, form, lyricLines, n } = open(bytes, lyrics);
  if (form === LRC) {
    const out: string[] = [];
    let cs = 0;
    for (let i = 0; i < n; i++) {
      cs += r.int();
      out.push(`${lrcTime(cs)} ${r.text(lyricLines)}`);
    }
    return out.join('\n');
  }
  renderRichsync(r, lyricLines, n, PLAIN);
  return scratch.text();
}

/**
 * A stored richsync's lines and character groups, counted from the form without rendering it (the
 * counts of its text: a form renders back exactly).
 */
export function richsyncCounts(bytes: Uint8Array): { lines: number; groups: number } {
  const r = new Reader(bytes);
  if (r.uint() !== RICHSYNC) throw new RefrainError('internal', 'a stored form is not a richsync');
  r.uint();
  const lines = r.uint();
  let groups = 0;
  for (let i = 0; i < lines; i++) {
    r.uint();
    r.uint();
    r.skipText();
    const head = r.uint();
    const n = head >> 1;
    groups += n;
    if (!(head & 1)) for (let g = 0; g < n; g++) r.skipText();
    for (let g = 0; g < n; g++) r.uint();
  }
  return { lines, groups };
}

/**
 * A stored richsync's text as a JSON string, quotes included, as UTF-8: what `JSON.stringify` of
 * decodeSynced's text gives, written straight from the form (an answer splices it in, and neither
 * the text nor its escaping is made on the way).
 */
export function richsyncJsonString(bytes: Uint8Array, lyrics: string): Buffer {
  const { r, form, lyricLines, n } = open(bytes, lyrics);
  if (form !== RICHSYNC) throw new RefrainError('internal', `a stored form ${form} is not a richsync`);
  renderRichsync(r, lyricLines, n, ESCAPED);
  return scratch.copy();
}

/** A stored form's header read, checked against the track's lyrics. */
function open(bytes: Uint8Array, lyrics: string): { r: Reader; form: number; lyricLines: string[]; n: number } {
  const r = new Reader(bytes);
  const form = r.uint();
  const lyricLines = lyrics.split('\n');
  const count = r.uint();
  if (count !== lyricLines.length) {
    throw new RefrainError('internal', `a stored synced body was written against lyrics of ${count} lines, the track's have ${lyricLines.length}`);
  }
  if (form !== LRC && form !== RICHSYNC) throw new RefrainError('internal', `unknown stored synced form ${form}`);
  return { r, form, lyricLines, n: r.uint() };
}

/**
 * A richsync's JSON, written as UTF-8 into the scratch buffer: built from its ~1,000 pieces as
 * JavaScript strings it took ~8× as long as reading the text it replaces. `marks` says whether it
 * is written as JSON or as a JSON string of that JSON (its quotes escaped): the words of a line
 * that needs no escaping are the same bytes either way. A line whose text needs escaping, or not
 * cut into words and spaces, goes the slower way (lineJson).
 */
function renderRichsync(r: Reader, lyricLines: readonly string[], n: number, marks: Marks): void {
  const b = scratch.reset();
  const { TS, TE, GROUPS, C, O, X, LINE_END } = marks;
  if (marks === ESCAPED) b.byte(0x22);
  /** Each distinct line text as written: itself when printable ASCII, else its UTF-8 bytes, or null when JSON would escape some of it. */
  const textOf = new Map<string, string | Uint8Array | null>();
  b.byte(0x5b);
  let end = 0;
  for (let i = 0; i < n; i++) {
    const ts = end + r.int();
    const te = ts + r.int();
    const x = r.text(lyricLines);
    const head = r.uint();
    end = te;
    if (i) b.byte(0x2c);
    let text = textOf.get(x);
    if (text === undefined) textOf.set(x, (text = PRINTABLE_ASCII.test(x) ? x : NEEDS_ESCAPE.test(x) ? null : encoder.encode(x)));
    if (ts < 0 || te < 0 || head >> 1 > r.left()) throw new RefrainError('internal', 'a stored richsync is corrupt');
    if (!(head & 1) || text === null) {
      const line = lineJson(r, lyricLines, ts, te, x, head);
      b.string(marks === ESCAPED ? JSON.stringify(line).slice(1, -1) : line);
      continue;
    }
    const groups = head >> 1;
    // The line's bytes are written straight into the buffer (a call per piece cost ~3× as much):
    // room for its groups' offsets and punctuation, then its text twice (each word, then x).
    const buf = b.room(100 + groups * 40 + text.length * 2);
    let at = b.at;
    at = put(buf, at, TS);
    at = putSeconds(buf, at, ts);
    at = put(buf, at, TE);
    at = putSeconds(buf, at, te);
    at = put(buf, at, GROUPS);
    let o = 0;
    let from = 0;
    for (let g = 0; g < groups; g++) {
      o += r.int();
      if (o < 0) throw new RefrainError('internal', 'a stored richsync offset is negative');
      if (g) buf[at++] = 0x2c;
      at = put(buf, at, C);
      if (g & 1) buf[at++] = 0x20;
      else if (typeof text === 'string') {
        for (let c = text.charCodeAt(from); from < text.length && c !== 0x20; c = text.charCodeAt(++from)) buf[at++] = c;
        from++;
      } else {
        for (; from < text.length && text[from] !== 0x20; from++) buf[at++] = text[from];
        from++;
      }
      at = put(buf, at, O);
      at = putSeconds(buf, at, o);
      buf[at++] = 0x7d;
    }
    at = put(buf, at, X);
    if (typeof text === 'string') for (let c = 0; c < text.length; c++) buf[at++] = text.charCodeAt(c);
    else at = put(buf, at, text);
    at = put(buf, at, LINE_END);
    if (typeof text !== 'string') b.notAscii();
    b.at = at;
  }
  b.byte(0x5d);
  if (marks === ESCAPED) b.byte(0x22);
}

/** One richsync line's JSON, built as a string (any text, any cut of it into groups). */
function lineJson(r: Reader, lyricLines: readonly string[], ts: number, te: number, x: string, head: number): string {
  const groups = head >> 1;
  const texts = head & 1 ? wordsAndSpaces(x) : Array.from({ length: groups }, () => r.text(lyricLines));
  let o = 0;
  let l = '';
  for (let g = 0; g < groups; g++) {
    o += r.int();
    l += `${g ? ',' : ''}{"c":${JSON.stringify(texts[g])},"o":${o / 100}}`;
  }
  return `{"ts":${ts / 100},"te":${te / 100},"l":[${l}],"x":${JSON.stringify(x)}}`;
}

const ascii = (s: string): Uint8Array => encoder.encode(s);
/** The fixed pieces of a richsync line's JSON, as JSON or inside a JSON string (quotes escaped). */
const marksOf = (escape: (s: string) => string) => ({
  TS: ascii(escape('{"ts":')),
  TE: ascii(escape(',"te":')),
  GROUPS: ascii(escape(',"l":[')),
  C: ascii(escape('{"c":"')),
  O: ascii(escape('","o":')),
  X: ascii(escape('],"x":"')),
  LINE_END: ascii(escape('"}')),
});
type Marks = ReturnType<typeof marksOf>;
const PLAIN: Marks = marksOf((s) => s);
const ESCAPED: Marks = marksOf((s) => s.replaceAll('"', '\\"'));
/** A centisecond count's fraction of a second as JavaScript prints cs / 100, as bytes. */
const FRACTION_BYTES = FRACTION.map(ascii);

/** Copies `bytes` into `buf` at `at`; returns the position after them. */
function put(buf: Uint8Array, at: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) buf[at++] = bytes[i];
  return at;
}

/** Writes `String(cs / 100)` for a whole number of centiseconds ≥ 0; returns the position after it. */
function putSeconds(buf: Uint8Array, at: number, cs: number): number {
  let whole = Math.floor(cs / 100);
  let digits = 1;
  for (let rest = whole; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  for (let i = digits - 1; i >= 0; i--) {
    buf[at + i] = 48 + (whole % 10);
    whole = Math.floor(whole / 10);
  }
  return put(buf, at + digits, FRACTION_BYTES[cs % 100]);
}

/** A growing UTF-8 buffer for one render at a time (renders are synchronous). */
class Scratch {
  buf = Buffer.allocUnsafe(64 * 1024);
  at = 0;
  /** Whether every byte written so far is ASCII (the text is then read as latin1: a copy, no decoding). */
  private ascii = true;

  reset(): this {
    this.at = 0;
    this.ascii = true;
    return this;
  }

  byte(b: number): this {
    this.room(1)[this.at++] = b;
    return this;
  }

  notAscii(): void {
    this.ascii = false;
  }

  string(s: string): this {
    this.room(s.length * 3);
    const written = this.buf.write(s, this.at, 'utf8');
    if (written !== s.length) this.ascii = false;
    this.at += written;
    return this;
  }

  text(): string {
    return this.buf.toString(this.ascii ? 'latin1' : 'utf8', 0, this.at);
  }

  /** What was written, as a buffer of its own. */
  copy(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.at));
  }

  /** The buffer, grown to hold `n` more bytes. */
  room(n: number): Buffer {
    if (this.at + n > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
      this.buf.copy(grown, 0, 0, this.at);
      this.buf = grown;
    }
    return this.buf;
  }
}

const scratch = new Scratch();

function isRichsyncLine(v: unknown): v is RichsyncLine {
  if (typeof v !== 'object' || v === null) return false;
  const { ts, te, l, x } = v as Partial<RichsyncLine>;
  return isTime(ts) && isTime(te) && typeof x === 'string' && Array.isArray(l) &&
    l.every((g: Partial<RichsyncGroup>) => typeof g === 'object' && g !== null && typeof g.c === 'string' && isTime(g.o));
}

const isTime = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= MAX_SECONDS;

/** A number of seconds in whole centiseconds (another precision fails the render check and is stored as text). */
const centis = (seconds: number): number => Math.round(seconds * 100);

/** The words of a line and the single spaces between them, as a richsync cuts it. */
function wordsAndSpaces(x: string): string[] {
  const words = x.split(' ');
  const out = new Array<string>(words.length * 2 - 1);
  for (let i = 0; i < words.length; i++) {
    if (i) out[2 * i - 1] = ' ';
    out[2 * i] = words[i];
  }
  return out;
}

function isWordsAndSpaces(groups: readonly RichsyncGroup[], x: string): boolean {
  const expected = wordsAndSpaces(x);
  return groups.length === expected.length && groups.every((g, i) => g.c === expected[i]);
}

interface Places {
  count: number;
  /** A lyrics line's number (its first, when it repeats). */
  of: Map<string, number>;
}

const NO_PLACES: Places = { count: 0, of: new Map() };

/** The last lyrics' places: a track's subtitle and richsync are encoded one after the other against the same lyrics. */
let lastPlaces: { lyrics: string; places: Places } | undefined;

function linePlaces(lyrics: string): Places {
  if (lastPlaces?.lyrics === lyrics) return lastPlaces.places;
  const lines = lyrics.split('\n');
  const of = new Map<string, number>();
  lines.forEach((line, i) => {
    if (!of.has(line)) of.set(line, i);
  });
  const places = { count: lines.length, of };
  lastPlaces = { lyrics, places };
  return places;
}

/** The form if it renders back to exactly `text`. */
function checked(bytes: Uint8Array, text: string, lyrics: string): Uint8Array | undefined {
  return decodeSynced(bytes, lyrics) === text ? bytes : undefined;
}

class Writer {
  private buf = new Uint8Array(256);
  private at = 0;

  uint(n: number): this {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a varint: ${n}`);
    this.room(8);
    while (n >= 0x80) {
      this.buf[this.at++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.at++] = n;
    return this;
  }

  /** A signed integer, zigzag-coded. */
  int(n: number): this {
    return this.uint(n < 0 ? -2 * n - 1 : 2 * n);
  }

  text(s: string, places: Places): this {
    const line = places.of.get(s);
    if (line !== undefined) return this.uint(line + 1);
    const bytes = encoder.encode(s);
    this.uint(0).uint(bytes.length);
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
    return this;
  }

  /** Writes what `other` holds. */
  append(other: Writer): this {
    this.room(other.at);
    this.buf.set(other.buf.subarray(0, other.at), this.at);
    this.at += other.at;
    return this;
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    grown.set(this.buf);
    this.buf = grown;
  }
}

class Reader {
  private at = 0;

  constructor(private readonly buf: Uint8Array) {}

  uint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.buf.length) throw new RefrainError('internal', 'a stored synced body ends early');
      const b = this.buf[this.at++];
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
    }
  }

  /** Bytes not read yet. */
  left(): number {
    return this.buf.length - this.at;
  }

  int(): number {
    const z = this.uint();
    return z % 2 ? -(z + 1) / 2 : z / 2;
  }

  /** Passes over a text (a line number, or inline bytes). */
  skipText(): void {
    if (this.uint() > 0) return;
    const length = this.uint();
    if (this.at + length > this.buf.length) throw new RefrainError('internal', 'a stored synced body ends early');
    this.at += length;
  }

  text(lines: readonly string[]): string {
    const ref = this.uint();
    if (ref > lines.length) throw new RefrainError('internal', `a stored synced body names lyrics line ${ref}, past the last`);
    if (ref > 0) return lines[ref - 1];
    const length = this.uint();
    if (this.at + length > this.buf.length) throw new RefrainError('internal', 'a stored synced body ends early');
    const s = decoder.decode(this.buf.subarray(this.at, this.at + length));
    this.at += length;
    return s;
  }
}
