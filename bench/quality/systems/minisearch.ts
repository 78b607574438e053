/**
 * MiniSearch in a child process with a large heap (it holds the whole index in JS objects). One
 * child builds the index once; two systems query it: `minisearch` (exact terms) and
 * `minisearch-fuzzy` (fuzzy edit distance of 0.2 × term length). Searches run one at a time.
 *
 * A child that runs out of memory, or takes longer than the load limit, makes both systems fail
 * with the reason (e.g. the 1M catalog may not fit).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import type { BenchPaths } from '../catalog.js';
import type { FromChild, ToChild } from './minisearch-protocol.js';
import { SystemFailure, type Answer, type Hit, type LoadReport, type SearchSystem } from './system.js';

const CHILD = path.join(import.meta.dirname, 'minisearch-child.js');

export interface MiniSearchOptions {
  heapMiB: number;
  loadMinutes: number;
}

/** The shared child process and its index. */
export class MiniSearchHost {
  private child?: ChildProcess;
  private loading?: Promise<LoadReport>;
  private users = 0;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (hits: Hit[]) => void; reject: (e: Error) => void }>();
  private stderrTail: string[] = [];
  private progress = { docs: 0, seconds: 0 };
  private loaded = false;
  /** Why the child is gone, once it is. */
  private exitReason?: string;

  constructor(
    private readonly paths: BenchPaths,
    private readonly options: MiniSearchOptions,
  ) {}

  /** A system that will query this host; the child stops when every one has released it. */
  register(): void {
    this.users++;
  }

  /** Start the child and build the index (once, whoever asks first); `shared` when an earlier system built it. */
  async load(): Promise<LoadReport & { shared: boolean }> {
    const shared = this.loading !== undefined;
    this.loading ??= this.start();
    return { ...(await this.loading), shared };
  }

  private start(): Promise<LoadReport> {
    const started = performance.now();
    const child = fork(CHILD, [], { execArgv: [`--max-old-space-size=${this.options.heapMiB}`], stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
    this.child = child;
    child.stderr?.on('data', (d: Buffer) => {
      this.stderrTail = [...this.stderrTail, ...d.toString('utf8').split('\n').filter(Boolean)].slice(-5);
    });
    // A send to a dead child emits 'error' on it: without a listener that would end the whole bench.
    child.on('error', (e) => {
      this.exitReason ??= `child process error: ${e.message}`;
    });
    return new Promise<LoadReport>((resolve, reject) => {
      const limit = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new SystemFailure(`index build exceeded ${this.options.loadMinutes} min (indexed ${this.progress.docs.toLocaleString('en')} docs)`));
      }, this.options.loadMinutes * 60_000);
      child.on('message', (m: FromChild) => {
        if (m.type === 'progress') this.progress = { docs: m.docs, seconds: m.seconds };
        else if (m.type === 'loaded') {
          clearTimeout(limit);
          this.loaded = true;
          resolve({
            seconds: (performance.now() - started) / 1000,
            detail: `index of ${m.docs.toLocaleString('en')} lyrics built in ${m.seconds.toFixed(1)} s; JS heap ${m.heapMiB.toLocaleString('en')} MiB`,
            cached: false,
          });
        } else if (m.type === 'result') {
          this.waiting.get(m.id)?.resolve(m.hits);
          this.waiting.delete(m.id);
        } else if (m.id !== undefined) {
          this.waiting.get(m.id)?.reject(new Error(m.message));
          this.waiting.delete(m.id);
        } else reject(new SystemFailure(m.message));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(limit);
        const when = this.loaded
          ? 'while searching'
          : `after indexing ${this.progress.docs.toLocaleString('en')} docs in ${this.progress.seconds.toFixed(0)} s`;
        const why = `child exited (${signal ?? `code ${code}`}) ${when}, --max-old-space-size=${this.options.heapMiB}: ${this.stderrTail.join(' | ').slice(0, 300)}`;
        this.exitReason = why;
        reject(new SystemFailure(why));
        for (const w of this.waiting.values()) w.reject(new Error(why));
        this.waiting.clear();
      });
      const load: ToChild = { type: 'load', file: this.paths.lyricsTsv };
      child.send(load);
    });
  }

  search(text: string, fuzzy: number): Promise<Hit[]> {
    const child = this.child;
    if (!child) return Promise.reject(new Error('not loaded'));
    if (this.exitReason || !child.connected) return Promise.reject(new Error(this.exitReason ?? 'child process gone'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const m: ToChild = { type: 'search', id, text, fuzzy };
      child.send(m, (e) => {
        if (!e) return;
        this.waiting.delete(id);
        reject(e);
      });
    });
  }

  /** Stop the child when the last system using it is done. */
  async release(): Promise<void> {
    if (--this.users > 0 || !this.child) return;
    const child = this.child;
    this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

export class MiniSearchSystem implements SearchSystem {
  readonly concurrency = 1;
  readonly settings: string;

  constructor(
    readonly name: string,
    private readonly fuzzy: number,
    private readonly host: MiniSearchHost,
    heapMiB: number,
    readonly perBucketLimit?: number,
  ) {
    host.register();
    this.settings = `MiniSearch 7, default tokenizer, combineWith OR, prefix off, fuzzy ${fuzzy > 0 ? fuzzy : 'off'}; child process, --max-old-space-size=${heapMiB}, serial`;
  }

  async load(): Promise<LoadReport> {
    const { shared, ...report } = await this.host.load();
    return shared ? { ...report, detail: `the index built for the previous MiniSearch row`, cached: true } : report;
  }

  async search(text: string): Promise<Answer> {
    return { hits: await this.host.search(text, this.fuzzy) };
  }

  close(): Promise<void> {
    return this.host.release();
  }
}
