/**
 * The lines of a catalog file, plain or gzip (detected from the magic bytes, not the name), read as
 * a stream with backpressure: the consumer's pace decides how much is read, so memory stays flat.
 * Splitting is done here rather than by node:readline, whose async iterator buffers lines ahead of
 * a slow consumer and splits with a regular expression.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { fileError } from '../util/file-errors.js';

export interface ReadProgress {
  /** Bytes read from disk (compressed bytes for gzip files). */
  bytesRead: number;
  /** Lines of the file being read so far, blank ones and ones not taken included (set when it has been read whole). */
  lines?: number;
}

async function isGzip(file: string): Promise<boolean> {
  const magic = Buffer.alloc(2);
  const fh = await open(file, 'r');
  try {
    await fh.read(magic, 0, 2, 0);
  } finally {
    await fh.close();
  }
  return magic[0] === 0x1f && magic[1] === 0x8b;
}

/** A line of a catalog file: its 1-based number, its text, and its bytes as read (UTF-8, no line end). */
export interface Line {
  n: number;
  text: string;
  /** A view of the read buffer, valid until the next line is taken. */
  bytes: Buffer;
}

/**
 * Non-blank lines of a file with their 1-based line numbers (a trailing `\r` is dropped); with
 * `take`, only those whose number it takes (the others are passed over undecoded). A file that
 * cannot be read or decompressed throws fileError: its name and the problem, in one line.
 *
 * Lines are found in the bytes (a newline byte is never part of another UTF-8 character) and each is
 * decoded alone: decoding whole chunks into one string and slicing it cost twice as much.
 */
export async function* linesOf(file: string, progress: ReadProgress = { bytesRead: 0 }, take?: (n: number) => boolean): AsyncGenerator<Line> {
  try {
    const gzip = await isGzip(file);
    const raw = createReadStream(file, { highWaterMark: 1 << 20 });
    let input: Readable = raw;
    if (gzip) {
      input = raw.pipe(createGunzip({ chunkSize: 1 << 20 }));
      raw.on('error', (e) => input.destroy(e));
    }
    /** The start of a line the last chunk did not finish. */
    let carry: Buffer = Buffer.alloc(0);
    /** Whether bytes were read after the last newline: a line the next chunk may finish. */
    let unfinished = false;
    let n = 0;
    const before = progress.bytesRead;
    for await (const chunk of input as AsyncIterable<Buffer>) {
      // fs.ReadStream counts what it read; a 'data' listener here would steal chunks from this loop.
      progress.bytesRead = before + raw.bytesRead;
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        n++;
        if (!take || take(n)) {
          const bytes = carry.length ? Buffer.concat([carry, chunk.subarray(0, end)]) : chunk.subarray(start, end);
          const line = lineOf(n, bytes);
          if (line) yield line;
        }
        carry = EMPTY;
        unfinished = false;
        start = end + 1;
      }
      if (start < chunk.length) {
        unfinished = true;
        if (!take || take(n + 1)) carry = carry.length ? Buffer.concat([carry, chunk.subarray(start)]) : Buffer.from(chunk.subarray(start));
      }
    }
    const last = carry.length ? lineOf(n + 1, carry) : undefined;
    if (last) yield last;
    progress.lines = n + (unfinished ? 1 : 0);
  } catch (e) {
    throw fileError(file, e);
  }
}

const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);

/** A line from its bytes (a final `\r` dropped), or undefined when it is blank. */
function lineOf(n: number, bytes: Buffer): Line | undefined {
  const body = bytes.length && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, bytes.length - 1) : bytes;
  const text = body.toString('utf8');
  return text.trim() === '' ? undefined : { n, text, bytes: body };
}
