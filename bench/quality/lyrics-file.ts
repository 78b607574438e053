/**
 * The catalog's lyrics as one file (`lyrics.tsv`) that every baseline loads: one `track_id<TAB>body`
 * line per track with lyrics, in PostgreSQL's COPY text format (backslash, tab, newline and
 * carriage return escaped), so psql can COPY it as is and the others unescape it.
 */
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Catalog } from '../../src/catalog/store.js';

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };

export const escapeCopy = (s: string): string => s.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]);
export const unescapeCopy = (s: string): string => s.replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c);

/** Write lyrics.tsv from the catalog unless it exists; returns the rows written (or undefined when cached). */
export async function exportLyrics(refrainData: string, file: string): Promise<{ rows: number; seconds: number } | undefined> {
  if (existsSync(file)) return undefined;
  const started = performance.now();
  const catalog = Catalog.open(refrainData);
  const tmp = `${file}.tmp`;
  const out = createWriteStream(tmp);
  let rows = 0;
  let chunk = '';
  try {
    for (const id of catalog.trackIds()) {
      const body = catalog.getContent('lyrics', id)?.lyrics_body;
      if (!body) continue;
      chunk += `${id}\t${escapeCopy(body)}\n`;
      rows++;
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await once(out, 'drain');
        chunk = '';
      }
    }
    out.end(chunk);
    await once(out, 'finish');
  } finally {
    await catalog.close();
  }
  renameSync(tmp, file);
  return { rows, seconds: (performance.now() - started) / 1000 };
}

/** The rows of lyrics.tsv, unescaped. */
export async function* readLyrics(file: string): AsyncGenerator<{ id: number; body: string }> {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    yield { id: Number(line.slice(0, tab)), body: unescapeCopy(line.slice(tab + 1)) };
  }
}
