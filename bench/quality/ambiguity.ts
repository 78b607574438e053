/**
 * How ambiguous each lyric query is on this catalog, by two FTS5 look-ups of its unedited excerpt
 * (less its last word, which the excerpt may cut), counting tracks outside the relevant set:
 *
 * - phrase: tracks holding the excerpt word for word. No system can tell those apart from the
 *   source, so recall is also reported over the queries without any.
 * - lines: tracks holding every line of the excerpt somewhere, not necessarily together (generated
 *   lyrics reuse whole lines across songs). A system that only measures how much of the query a
 *   lyric covers ties those with the source; one that also rewards contiguity can still rank it first.
 *
 * Cached per query set in the bench data directory.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchPaths } from './catalog.js';
import type { QuerySet } from './queries.js';
import { ensureFtsDb, phraseExpression, sqlString, SqliteShell } from './systems/fts5.js';
import { wordsOf } from './text.js';

/** Other tracks counted per query, at most. */
const CAP = 1000;
const VERSION = 3;

export interface Ambiguity {
  /** Query id → tracks outside the relevant set holding the excerpt word for word (≤ CAP). */
  phrase: ReadonlyMap<number, number>;
  /** Query id → tracks outside the relevant set holding each of its lines (≤ CAP). */
  lines: ReadonlyMap<number, number>;
}

interface AmbiguityFile {
  version: number;
  querySetCreatedAt: string;
  phrase: Record<string, number>;
  lines: Record<string, number>;
}

const toMap = (r: Record<string, number>): Map<number, number> => new Map(Object.entries(r).map(([k, v]) => [Number(k), v]));

/** The excerpt's words and its lines' words, without the last word when the excerpt may have cut it (`whole`: a whole line, nothing cut). */
function excerptWords(excerpt: string, whole: boolean): { words: string[]; lines: string[][] } {
  const lines = excerpt
    .split(/\n/)
    .map((l) => wordsOf(l))
    .filter((l) => l.length > 0);
  if (lines.length > 0 && !whole) lines[lines.length - 1] = lines[lines.length - 1].slice(0, -1);
  return { words: lines.flat(), lines: lines.filter((l) => l.length > 0) };
}

export async function loadOrComputeAmbiguity(paths: BenchPaths, set: QuerySet, reload: boolean): Promise<Ambiguity> {
  const file = path.join(paths.dir, `ambiguity-seed${set.seed}-per${set.perBucket}.json`);
  if (!reload && existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as AmbiguityFile;
    if (cached.version === VERSION && cached.querySetCreatedAt === set.createdAt) return { phrase: toMap(cached.phrase), lines: toMap(cached.lines) };
  }
  await ensureFtsDb(paths, set.catalogCreatedAt, false);
  const shell = SqliteShell.open(paths);
  const out: AmbiguityFile = { version: VERSION, querySetCreatedAt: set.createdAt, phrase: {}, lines: {} };
  const others = async (queryId: number, relevant: ReadonlySet<number>, match: string): Promise<number> => {
    const { rows, errors } = await shell.run(`SELECT rowid FROM t WHERE t MATCH ${sqlString(match)} LIMIT ${CAP};`);
    if (errors.length > 0) throw new Error(`look-up for query ${queryId}: ${errors.join('; ')}`);
    return rows.filter((r) => !relevant.has(Number(r))).length;
  };
  try {
    for (const q of set.queries) {
      if (!q.excerpt) continue;
      const { words, lines } = excerptWords(q.excerpt, q.bucket === 'line');
      if (words.length < 3) continue;
      const relevant = new Set(q.relevant);
      out.phrase[q.id] = await others(q.id, relevant, phraseExpression(words));
      out.lines[q.id] = lines.length > 1 ? await others(q.id, relevant, lines.map(phraseExpression).join(' AND ')) : out.phrase[q.id];
    }
  } finally {
    await shell.close();
  }
  writeFileSync(file, JSON.stringify(out));
  return { phrase: toMap(out.phrase), lines: toMap(out.lines) };
}
