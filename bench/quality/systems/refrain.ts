/**
 * Refrain over HTTP, as a screener calls it: `refrain serve` on a free port with the bench catalog,
 * an enterprise key from `refrain keys create`, and `POST /ws/1.1/track.lyrics.fingerprint.post`
 * with `{"data":{"text":…}}`, `size=10&limit=10`, a few requests in flight on keep-alive connections.
 *
 * Before the measured run one probe request must answer 200; otherwise (e.g. 405 "unknown API
 * method" while the endpoint does not exist) the system is reported as failed with the server's hint.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { Pool } from 'undici';
import { startProcess } from '../../lib/measure.js';
import type { BenchPaths } from '../catalog.js';
import { REFRAIN_BIN, refrain } from '../refrain-cli.js';
import { SystemFailure, type Answer, type LoadReport, type SearchSystem } from './system.js';

const METHOD = '/ws/1.1/track.lyrics.fingerprint.post';
const PROBE_TEXT = 'The quick brown fox jumps over the lazy dog while the band plays on into the night';

interface Envelope {
  message?: {
    header?: { status_code?: number; hint?: string };
    body?: { track_list?: Array<{ similarity?: number; longest_match?: number; track?: { track_id?: number; similarity?: number } }> } | string;
  };
}

export class RefrainSystem implements SearchSystem {
  readonly name = 'refrain';
  readonly settings: string;
  private child?: ChildProcess;
  private pool?: Pool;
  private key = '';

  constructor(
    private readonly paths: BenchPaths,
    readonly concurrency: number,
    private readonly indexSeconds: number | undefined,
  ) {
    this.settings = `POST ${METHOD}?size=10&limit=10, ${concurrency} requests in flight (keep-alive)`;
  }

  /** The bench's enterprise key, created once per catalog and kept in the bench data directory. */
  private async apiKey(): Promise<string> {
    const file = path.join(this.paths.dir, 'refrain-key.txt');
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    const out = await refrain(['keys', 'create', '--plan', 'enterprise', '--json', '--label', 'bench/quality', '--data', this.paths.refrainData]);
    const { key } = JSON.parse(out.stdout) as { key: string };
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    return key;
  }

  async load(): Promise<LoadReport> {
    this.key = await this.apiKey();
    const started = performance.now();
    const { child, match } = await startProcess(
      // No feeds: a first start would build a full feed in the background, competing for the cores.
      [REFRAIN_BIN, 'serve', '--data', this.paths.refrainData, '--port', '0', '--host', '127.0.0.1', '--no-feeds'],
      /"port":(\d+)/,
    );
    this.child = child;
    const seconds = (performance.now() - started) / 1000;
    this.pool = new Pool(`http://127.0.0.1:${match[1]}`, { connections: this.concurrency, pipelining: 1 });
    const probe = await this.post(PROBE_TEXT);
    if (probe.status !== 200) throw new SystemFailure(`probe answered HTTP ${probe.status}: ${probe.hint}`);
    const index = this.indexSeconds === undefined ? 'no `refrain index` command: index built by import or at start' : `refrain index ${this.indexSeconds.toFixed(1)} s`;
    return { seconds, detail: `serve start-up to listening ${seconds.toFixed(1)} s (${index})`, cached: false };
  }

  private async post(text: string): Promise<{ status: number; hint: string; answer: Answer }> {
    if (!this.pool) throw new Error('not loaded');
    const res = await this.pool.request({
      path: `${METHOD}?apikey=${encodeURIComponent(this.key)}&size=10&limit=10`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { text } }),
    });
    const raw = await res.body.text();
    let envelope: Envelope = {};
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      // Not JSON: keep the raw text as the hint.
    }
    const header = envelope.message?.header;
    const status = res.statusCode === 200 ? (header?.status_code ?? 200) : res.statusCode;
    const body = envelope.message?.body;
    const list = typeof body === 'object' ? (body.track_list ?? []) : [];
    const hits = list.map((item) => ({
      trackId: item.track?.track_id ?? 0,
      score: item.similarity ?? item.track?.similarity ?? 0,
      longestMatch: item.longest_match,
    }));
    return { status, hint: header?.hint ?? (typeof body === 'string' ? body : raw.slice(0, 200)), answer: { hits } };
  }

  async search(text: string): Promise<Answer> {
    const { status, hint, answer } = await this.post(text);
    if (status !== 200) throw new Error(`HTTP ${status}: ${hint}`);
    return answer;
  }

  async close(): Promise<void> {
    await this.pool?.close();
    if (this.child && this.child.exitCode === null) {
      this.child.kill('SIGTERM');
      await once(this.child, 'exit');
    }
  }
}
