/**
 * Writing a generated catalog to a file or to standard output: `refrain generate`, and the benches
 * and tests that need a catalog file.
 */
import { createWriteStream, openSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RefrainError } from '../errors.js';
import { fileProblem } from '../util/file-errors.js';
import { generateCatalog, type GenerateOptions, type GenerateStats } from './index.js';

/**
 * Write a generated catalog to a file (gzip when the name ends in .gz) or to standard output,
 * honouring backpressure. The file is opened first, so a bad path fails at once with its name and
 * the problem (RefrainError), never as an unhandled stream error.
 */
export async function writeCatalog(
  options: GenerateOptions,
  out: string | undefined,
  onTrack?: (tracks: number) => void,
): Promise<GenerateStats> {
  const { lines, stats } = generateCatalog(options);
  function* chunks(): Generator<string> {
    let chunk = '';
    for (const line of lines) {
      chunk += line + '\n';
      if (chunk.length < 1 << 16) continue;
      yield chunk;
      chunk = '';
      onTrack?.(stats.tracks);
    }
    if (chunk) yield chunk;
  }
  if (!out) {
    for (const chunk of chunks()) if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
    return stats;
  }
  let fd: number;
  try {
    fd = openSync(out, 'w');
  } catch (e) {
    throw new RefrainError('bad_request', `cannot write ${out}: ${fileProblem(e)}`);
  }
  const file = createWriteStream(out, { fd });
  try {
    const source = Readable.from(chunks(), { objectMode: false });
    if (out.endsWith('.gz')) await pipeline(source, createGzip({ level: 4 }), file);
    else await pipeline(source, file);
  } catch (e) {
    throw new RefrainError('bad_request', `cannot write ${out}: ${fileProblem(e)}`);
  }
  return stats;
}
