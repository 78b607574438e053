/**
 * SQLite FTS5 with BM25 through the `sqlite3` command-line shell: `fts5.sqlite` holds
 * `t USING fts5(body)` with rowid = track_id (default unicode61 tokenizer), loaded once per catalog
 * from lyrics.tsv and reused by later runs. Queries go to one long-lived `sqlite3 -batch` process
 * on stdin, one statement per query followed by a marker line:
 *
 *   SELECT rowid, -bm25(t) FROM t WHERE t MATCH '"w1" OR "w2" OR …' ORDER BY bm25(t) LIMIT 10;
 *
 * where w1… are the query's distinct words (letters and digits). The shell runs one statement at a
 * time, so queries are serial; latency includes the pipe round trip (tens of microseconds).
 * The same database answers the bench's phrase look-ups (ambiguity.ts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import type { BenchPaths } from '../catalog.js';
import { readLyrics } from '../lyrics-file.js';
import { wordsOf } from '../text.js';
import type { Answer, LoadReport, SearchSystem } from './system.js';

const END = '@@END';

export interface FtsLoad {
  catalogCreatedAt: string;
  rows: number;
  seconds: number;
  bytes: number;
  at: string;
}

export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const quoted = (w: string): string => `"${w.replace(/"/g, '""')}"`;

/** The FTS5 query: every distinct word of the text, quoted, joined with OR. */
export function matchExpression(text: string): string {
  return [...new Set(wordsOf(text))].map(quoted).join(' OR ');
}

/** An FTS5 phrase: the words in order. */
export function phraseExpression(words: readonly string[]): string {
  return quoted(words.join(' '));
}

async function writeIn(stdin: Writable, text: string): Promise<void> {
  if (!stdin.write(text)) await once(stdin, 'drain');
}

const dbFile = (paths: BenchPaths): string => path.join(paths.dir, 'fts5.sqlite');

/** Build fts5.sqlite from lyrics.tsv in one transaction, then merge its segments (optimize). */
async function build(paths: BenchPaths, catalogCreatedAt: string, stateFile: string): Promise<FtsLoad> {
  const db = dbFile(paths);
  rmSync(db, { force: true });
  const started = performance.now();
  // The shell's own output (e.g. the journal mode it switched to) goes to stderr, not the report.
  const child = spawn('sqlite3', ['-batch', '-bail', db], { stdio: ['pipe', 2, 'inherit'] });
  const stdin = child.stdin;
  if (!stdin) throw new Error('sqlite3 has no stdin');
  const exited = once(child, 'exit');
  await writeIn(stdin, 'PRAGMA journal_mode = OFF;\nPRAGMA synchronous = OFF;\nCREATE VIRTUAL TABLE t USING fts5(body);\nBEGIN;\n');
  let rows = 0;
  let chunk = '';
  for await (const { id, body } of readLyrics(paths.lyricsTsv)) {
    chunk += `INSERT INTO t(rowid, body) VALUES (${id}, ${sqlString(body)});\n`;
    rows++;
    if (chunk.length > 1 << 20) {
      await writeIn(stdin, chunk);
      chunk = '';
    }
  }
  await writeIn(stdin, `${chunk}COMMIT;\nINSERT INTO t(t) VALUES ('optimize');\n`);
  stdin.end();
  const [code] = (await exited) as [number | null];
  if (code !== 0) throw new Error(`sqlite3 exited with ${code} while loading`);
  const state: FtsLoad = { catalogCreatedAt, rows, seconds: (performance.now() - started) / 1000, bytes: statSync(db).size, at: new Date().toISOString() };
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  return state;
}

/** fts5.sqlite of this catalog, built unless an earlier run built it (or `reload`). */
export async function ensureFtsDb(paths: BenchPaths, catalogCreatedAt: string, reload: boolean): Promise<FtsLoad & { cached: boolean }> {
  const stateFile = path.join(paths.dir, 'fts5-load.json');
  if (!reload && existsSync(stateFile) && existsSync(dbFile(paths))) {
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as FtsLoad;
    if (state.catalogCreatedAt === catalogCreatedAt) return { ...state, cached: true };
  }
  return { ...(await build(paths, catalogCreatedAt, stateFile)), cached: false };
}

/** A long-lived `sqlite3 -batch` on the database: one statement at a time, rows as `a|b` lines. */
export class SqliteShell {
  private readonly shell: ChildProcessWithoutNullStreams;
  private pending?: { rows: string[]; errors: string[]; done: (r: { rows: string[]; errors: string[] }) => void };
  private busy: Promise<unknown> = Promise.resolve();

  constructor(db: string) {
    this.shell = spawn('sqlite3', ['-batch', db]);
    createInterface({ input: this.shell.stdout }).on('line', (line) => {
      if (!this.pending) return;
      if (line === END) {
        const p = this.pending;
        this.pending = undefined;
        p.done(p);
      } else this.pending.rows.push(line);
    });
    createInterface({ input: this.shell.stderr }).on('line', (line) => this.pending?.errors.push(line));
  }

  static open(paths: BenchPaths): SqliteShell {
    return new SqliteShell(dbFile(paths));
  }

  /** Run one statement; resolves with its output rows and any error lines. */
  run(sql: string): Promise<{ rows: string[]; errors: string[] }> {
    const result = this.busy.then(
      () =>
        new Promise<{ rows: string[]; errors: string[] }>((resolve) => {
          this.pending = { rows: [], errors: [], done: resolve };
          this.shell.stdin.write(`${sql}\nSELECT '${END}';\n`);
        }),
    );
    this.busy = result;
    return result;
  }

  async close(): Promise<void> {
    this.shell.stdin.end();
    if (this.shell.exitCode === null) await once(this.shell, 'exit');
  }
}

export class Fts5System implements SearchSystem {
  readonly name = 'fts5';
  readonly concurrency = 1;
  readonly settings = 'sqlite3 3.40 shell, fts5(body) default unicode61 tokenizer, OR of the distinct query words, ORDER BY bm25 LIMIT 10, serial';
  private shell?: SqliteShell;

  constructor(
    private readonly paths: BenchPaths,
    private readonly catalogCreatedAt: string,
    private readonly reload: boolean,
  ) {}

  async load(): Promise<LoadReport> {
    const state = await ensureFtsDb(this.paths, this.catalogCreatedAt, this.reload);
    this.shell = SqliteShell.open(this.paths);
    const detail =
      `INSERT of ${state.rows.toLocaleString('en')} rows in one transaction + optimize ${state.seconds.toFixed(1)} s; ` +
      `${(state.bytes / 2 ** 20).toFixed(0)} MiB file${state.cached ? ` (built by the run of ${state.at.slice(0, 16)}Z, reused)` : ''}`;
    return { seconds: state.seconds, detail, cached: state.cached };
  }

  async search(text: string): Promise<Answer> {
    if (!this.shell) throw new Error('not loaded');
    const match = matchExpression(text);
    if (!match) return { hits: [] };
    const { rows, errors } = await this.shell.run(`SELECT rowid, -bm25(t) FROM t WHERE t MATCH ${sqlString(match)} ORDER BY bm25(t) LIMIT 10;`);
    if (errors.length > 0) throw new Error(errors.join('; '));
    return {
      hits: rows.map((r) => {
        const [id, score] = r.split('|');
        return { trackId: Number(id), score: Number(score) };
      }),
    };
  }

  async close(): Promise<void> {
    await this.shell?.close();
    this.shell = undefined;
  }
}
