/**
 * PostgreSQL 15 with pg_trgm: table `q<N>(track_id, body)` loaded with COPY (psql, from lyrics.tsv),
 * a GIN `gin_trgm_ops` index on body, and per query
 *
 *   SELECT track_id, word_similarity($1, body) FROM q<N> WHERE $1 <% body ORDER BY 2 DESC LIMIT 10
 *
 * with `pg_trgm.word_similarity_threshold` and a per-statement `statement_timeout` set on each
 * connection (a timed-out query counts as a miss and is reported). The loaded table is reused by
 * later runs on the same catalog; `pg-load.json` keeps the times of the run that loaded it.
 *
 * Connects as the OS user over the local socket (peer authentication); as root, the bench creates
 * a `root` superuser role and the database the first time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { BenchPaths } from '../catalog.js';
import { SystemFailure, type Answer, type LoadReport, type SearchSystem } from './system.js';

const DATABASE = 'refrain_quality';
const SOCKET = '/var/run/postgresql';

export interface PgOptions {
  threshold: number;
  timeoutMs: number;
  concurrency: number;
  reload: boolean;
}

interface PgLoad {
  catalogCreatedAt: string;
  rows: number;
  copySeconds: number;
  indexSeconds: number;
  tableBytes: number;
  indexBytes: number;
  at: string;
}

function sh(cmd: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

/** Start the cluster if it is down, and make the role and database the bench connects with. */
function ensureServer(user: string): void {
  if (!sh('pg_isready', ['-h', SOCKET]).ok) {
    const started = sh('pg_ctlcluster', ['15', 'main', 'start']);
    if (!started.ok) throw new SystemFailure(`PostgreSQL is not running and pg_ctlcluster 15 main start failed: ${started.out}`);
  }
  const asPostgres = (sql: string) => sh('runuser', ['-u', 'postgres', '--', 'psql', '-Atc', sql]);
  if (user === 'root' && asPostgres(`SELECT 1 FROM pg_roles WHERE rolname = 'root'`).out !== '1') {
    const made = asPostgres('CREATE ROLE root SUPERUSER LOGIN');
    if (!made.ok) throw new SystemFailure(`cannot create the root role: ${made.out}`);
  }
  if (sh('psql', ['-h', SOCKET, '-d', 'postgres', '-Atc', `SELECT 1 FROM pg_database WHERE datname = '${DATABASE}'`]).out !== '1') {
    const made = sh('createdb', ['-h', SOCKET, DATABASE]);
    if (!made.ok) throw new SystemFailure(`cannot create database ${DATABASE}: ${made.out}`);
  }
}

/** Pipe lyrics.tsv into `COPY table FROM STDIN` through psql (whose "COPY n" goes to stderr). */
function copyIn(table: string, file: string): Promise<void> {
  const psql = spawn('psql', ['-h', SOCKET, '-d', DATABASE, '-v', 'ON_ERROR_STOP=1', '-c', `COPY ${table} (track_id, body) FROM STDIN`], {
    stdio: ['pipe', 2, 'inherit'],
  });
  if (psql.stdin) createReadStream(file).pipe(psql.stdin);
  return new Promise((resolve, reject) => {
    psql.once('error', reject);
    psql.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql COPY exited with ${code}`))));
  });
}

export class PgSystem implements SearchSystem {
  readonly name = 'pg_trgm';
  readonly settings: string;
  readonly concurrency: number;
  private readonly table: string;
  private readonly stateFile: string;
  private clients: pg.Client[] = [];
  private idle: pg.Client[] = [];
  private waiting: Array<(c: pg.Client) => void> = [];

  constructor(
    private readonly paths: BenchPaths,
    tracks: number,
    private readonly catalogCreatedAt: string,
    private readonly options: PgOptions,
  ) {
    this.table = `q${tracks}`;
    this.stateFile = path.join(paths.dir, 'pg-load.json');
    this.concurrency = options.concurrency;
    this.settings =
      `word_similarity, \`$1 <% body\`, pg_trgm.word_similarity_threshold = ${options.threshold}, ` +
      `statement_timeout = ${options.timeoutMs} ms, ${options.concurrency} connections; default server config (shared_buffers 128 MB)`;
  }

  private connect(): pg.Client {
    return new pg.Client({ host: SOCKET, database: DATABASE, user: os.userInfo().username });
  }

  /** The table as loaded by an earlier run on this catalog, if it is still there. */
  private async cachedLoad(admin: pg.Client): Promise<PgLoad | undefined> {
    if (this.options.reload || !existsSync(this.stateFile)) return undefined;
    const state = JSON.parse(readFileSync(this.stateFile, 'utf8')) as PgLoad;
    if (state.catalogCreatedAt !== this.catalogCreatedAt) return undefined;
    const exists = await admin.query<{ t: string | null; i: string | null }>(`SELECT to_regclass($1) AS t, to_regclass($2) AS i`, [this.table, `${this.table}_trgm`]);
    if (!exists.rows[0].t || !exists.rows[0].i) return undefined;
    const count = await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.table}`);
    return count.rows[0].n === state.rows ? state : undefined;
  }

  async load(): Promise<LoadReport> {
    ensureServer(os.userInfo().username);
    const admin = this.connect();
    await admin.connect();
    try {
      let state = await this.cachedLoad(admin);
      const cached = state !== undefined;
      if (!state) {
        await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
        await admin.query(`DROP TABLE IF EXISTS ${this.table}`);
        await admin.query(`CREATE UNLOGGED TABLE ${this.table} (track_id integer NOT NULL, body text NOT NULL)`);
        let t0 = performance.now();
        await copyIn(this.table, this.paths.lyricsTsv);
        const copySeconds = (performance.now() - t0) / 1000;
        t0 = performance.now();
        await admin.query(`SET maintenance_work_mem = '4GB'`);
        await admin.query(`CREATE INDEX ${this.table}_trgm ON ${this.table} USING gin (body gin_trgm_ops)`);
        await admin.query(`ANALYZE ${this.table}`);
        const indexSeconds = (performance.now() - t0) / 1000;
        const sizes = await admin.query<{ n: number; t: string; i: string }>(
          `SELECT count(*)::int AS n, pg_table_size($1)::bigint AS t, pg_relation_size($2)::bigint AS i FROM ${this.table}`,
          [this.table, `${this.table}_trgm`],
        );
        state = {
          catalogCreatedAt: this.catalogCreatedAt,
          rows: sizes.rows[0].n,
          copySeconds,
          indexSeconds,
          tableBytes: Number(sizes.rows[0].t),
          indexBytes: Number(sizes.rows[0].i),
          at: new Date().toISOString(),
        };
        writeFileSync(this.stateFile, JSON.stringify(state, null, 2));
      }
      const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
      const detail =
        `COPY ${state.copySeconds.toFixed(1)} s + GIN index and ANALYZE ${state.indexSeconds.toFixed(1)} s; ` +
        `table ${mib(state.tableBytes)}, index ${mib(state.indexBytes)}${cached ? ` (loaded by the run of ${state.at.slice(0, 16)}Z, reused)` : ''}`;
      for (let i = 0; i < this.options.concurrency; i++) {
        const c = this.connect();
        await c.connect();
        await c.query(`SET pg_trgm.word_similarity_threshold = ${this.options.threshold}`);
        await c.query(`SET statement_timeout = ${this.options.timeoutMs}`);
        this.clients.push(c);
        this.idle.push(c);
      }
      return { seconds: state.copySeconds + state.indexSeconds, detail, cached };
    } finally {
      await admin.end();
    }
  }

  private take(): Promise<pg.Client> {
    const c = this.idle.pop();
    return c ? Promise.resolve(c) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private give(c: pg.Client): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  async search(text: string): Promise<Answer> {
    const c = await this.take();
    try {
      const r = await c.query<{ track_id: number; s: number }>(
        `SELECT track_id, word_similarity($1, body) AS s FROM ${this.table} WHERE $1 <% body ORDER BY s DESC LIMIT 10`,
        [text],
      );
      return { hits: r.rows.map((row) => ({ trackId: row.track_id, score: row.s })) };
    } catch (e) {
      if ((e as { code?: string }).code === '57014') return { hits: [], timedOut: true }; // query_canceled
      throw e;
    } finally {
      this.give(c);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.end()));
    this.clients = [];
    this.idle = [];
  }
}
