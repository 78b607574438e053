/**
 * The lines of a catalog file, plain or gzip (detected from the magic bytes, not the name), read as
 * a stream with backpressure: the consumer's pace decides how much is read, so memory stays flat.
 * Splitting is done here rather than by node:readline, whose async iterator buffers lines ahead of
 * a slow consumer and splits with a regular expression.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { fileError } from '../util/file-errors.js';

export interface ReadProgress {
  /** Bytes read from disk (compressed bytes for gzip files). */
  bytesRead: number;
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

/**
 * Non-blank lines of a file with their 1-based line numbers (a trailing `\r` is dropped). A file
 * that cannot be read or decompressed throws fileError: its name and the problem, in one line.
 */
export async function* linesOf(file: string, progress: ReadProgress = { bytesRead: 0 }): AsyncGenerator<{ n: number; text: string }> {
  try {
    const gzip = await isGzip(file);
    const raw = createReadStream(file, { highWaterMark: 1 << 20 });
    let input: Readable = raw;
    if (gzip) {
      input = raw.pipe(createGunzip({ chunkSize: 1 << 20 }));
      raw.on('error', (e) => input.destroy(e));
    }
    const decoder = new StringDecoder('utf8');
    let carry = '';
    let n = 0;
    const before = progress.bytesRead;
    for await (const chunk of input) {
      // fs.ReadStream counts what it read; a 'data' listener here would steal chunks from this loop.
      progress.bytesRead = before + raw.bytesRead;
      const text = carry + decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        n++;
        const line = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
        if (line.trim() !== '') yield { n, text: line };
        start = end + 1;
      }
      carry = text.slice(start);
    }
    const last = carry + decoder.end();
    if (last.trim() !== '') yield { n: n + 1, text: last };
  } catch (e) {
    throw fileError(file, e);
  }
}
