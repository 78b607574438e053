/**
 * The MiniSearch baseline's own process (started by systems/minisearch.ts with a large
 * --max-old-space-size): builds an in-memory MiniSearch index of lyrics.tsv with the default
 * tokenizer and term processing, then answers searches with `combineWith: 'OR'` and the fuzziness
 * the parent asks for, returning the top 10 ids and scores.
 */
import MiniSearch from 'minisearch';
import { readLyrics } from '../lyrics-file.js';
import type { FromChild, ToChild } from './minisearch-protocol.js';

interface Doc {
  id: number;
  body: string;
}

const send = (m: FromChild): void => {
  process.send?.(m);
};

let index: MiniSearch<Doc> | undefined;

async function load(file: string): Promise<void> {
  const started = performance.now();
  const ms = new MiniSearch<Doc>({ fields: ['body'], storeFields: [] });
  let docs = 0;
  for await (const doc of readLyrics(file)) {
    ms.add(doc);
    if (++docs % 50_000 === 0) send({ type: 'progress', docs, seconds: (performance.now() - started) / 1000 });
  }
  index = ms;
  send({ type: 'loaded', docs, seconds: (performance.now() - started) / 1000, heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20) });
}

process.on('message', (m: ToChild) => {
  if (m.type === 'load') {
    load(m.file).catch((e: unknown) => send({ type: 'error', message: String(e) }));
    return;
  }
  try {
    if (!index) throw new Error('search before load');
    const results = index.search(m.text, { combineWith: 'OR', fuzzy: m.fuzzy > 0 ? m.fuzzy : false, prefix: false });
    send({ type: 'result', id: m.id, hits: results.slice(0, 10).map((r) => ({ trackId: Number(r.id), score: r.score })) });
  } catch (e) {
    send({ type: 'error', id: m.id, message: String(e) });
  }
});
