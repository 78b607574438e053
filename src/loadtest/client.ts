/**
 * The HTTP side of a load test: undici's connection pool, driven through its low-level `dispatch`
 * (no stream per response: about half the client CPU of `request()`), keep-alive connections, one
 * request at a time on each. A response is reduced to what the report needs: its HTTP status, the
 * API's status (`x-refrain-header-status`, else the envelope's `message.header.status_code`) and,
 * when asked for, its body.
 */
import { Pool } from 'undici';

/** One request of a run. `source` is the track a fingerprint text was taken from (the check). */
export interface LoadRequest {
  method: string;
  verb: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The body's Content-Type (JSON when absent). */
  contentType?: string;
  source?: { trackId: number; commontrackId: number; variant: string };
}

export interface Outcome {
  http: number;
  /** The API status; 0 when the response carried none. */
  envelope: number;
  /** `timeout`, or the error's code (ECONNREFUSED, ECONNRESET…). */
  error?: string;
  body?: Buffer;
  /** `x-refrain-quota-remaining`, when the server sent it. */
  quotaRemaining?: number;
}

export type Credentials = { apikey: string } | { bearer: string };

/** Bodies kept for checks are cut here: a fingerprint answer of 20 tracks is ~40 KB. */
const MAX_KEPT_BODY = 1 << 20;
const STATUS_HEADER = 'x-refrain-header-status';
const QUOTA_HEADER = 'x-refrain-quota-remaining';

export class TargetClient {
  private readonly pool: Pool;
  private readonly headers: Record<string, string>;
  private readonly query: string;
  /** Requests sent or queued and not yet answered. */
  outstanding = 0;
  /** The quota left as the latest answer said. */
  lastQuota: number | undefined;
  private drained: (() => void)[] = [];

  /** Without credentials, requests go as their paths say (the benches put the key in them). */
  constructor(origin: URL, connections: number, credentials: Credentials | undefined, private readonly timeoutMs: number) {
    this.pool = new Pool(origin.origin, { connections, pipelining: 1, connectTimeout: timeoutMs, keepAliveTimeout: 30_000 });
    this.headers = credentials && 'bearer' in credentials ? { authorization: `Bearer ${credentials.bearer}` } : {};
    this.query = credentials && 'apikey' in credentials ? `apikey=${encodeURIComponent(credentials.apikey)}` : '';
  }

  /** The path with the API key added. */
  withKey(path: string): string {
    if (!this.query) return path;
    return `${path}${path.includes('?') ? '&' : '?'}${this.query}`;
  }

  /** Send `request` (its path already carries the key: `withKey`); `done` gets the outcome once. */
  send(request: LoadRequest, keepBody: boolean, done: (outcome: Outcome) => void): void {
    this.outstanding++;
    let http = 0;
    let envelope = 0;
    let quotaRemaining: number | undefined;
    let chunks: Buffer[] | undefined;
    let kept = 0;
    let finished = false;
    const finish = (outcome: Outcome) => {
      if (finished) return;
      finished = true;
      this.outstanding--;
      if (outcome.quotaRemaining !== undefined) this.lastQuota = outcome.quotaRemaining;
      done(outcome);
      if (this.outstanding === 0) for (const wake of this.drained.splice(0)) wake();
    };
    const headers = request.body === undefined ? this.headers : { ...this.headers, 'content-type': request.contentType ?? 'application/json' };
    this.pool.dispatch(
      { path: request.path, method: request.verb, headers, body: request.body, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs },
      {
        onConnect() {},
        onHeaders(statusCode, raw) {
          http = statusCode;
          for (let i = 0; i + 1 < raw.length; i += 2) {
            const name = raw[i];
            if (name.length === STATUS_HEADER.length && name.toString('latin1').toLowerCase() === STATUS_HEADER) envelope = Number(raw[i + 1].toString('latin1'));
            else if (name.length === QUOTA_HEADER.length && name.toString('latin1').toLowerCase() === QUOTA_HEADER) quotaRemaining = Number(raw[i + 1].toString('latin1'));
          }
          if (keepBody || envelope === 0) chunks = [];
          return true;
        },
        onData(chunk) {
          if (chunks && kept < MAX_KEPT_BODY) {
            chunks.push(chunk);
            kept += chunk.length;
          }
          return true;
        },
        onComplete() {
          const body = chunks ? Buffer.concat(chunks) : undefined;
          if (envelope === 0 && body) envelope = envelopeStatus(body);
          finish({ http, envelope, body: keepBody ? body : undefined, quotaRemaining });
        },
        onError(err) {
          finish({ http, envelope, error: errorName(err), quotaRemaining });
        },
      },
    );
  }

  /** A GET and its answer's envelope, for discovery (the key added). */
  getEnvelope(path: string): Promise<{ outcome: Outcome; envelope: ReturnType<typeof envelopeOf> }> {
    return new Promise((resolve) => {
      this.send({ method: 'discovery', verb: 'GET', path: this.withKey(path) }, true, (outcome) => resolve({ outcome, envelope: envelopeOf(outcome.body) }));
    });
  }

  /** Resolves when no request is outstanding. */
  idle(): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/** The envelope of an API answer (`message.header` and `message.body`), or undefined when the body is not one. */
export function envelopeOf(body: Buffer | undefined): { header?: { status_code?: number; hint?: string }; body?: unknown } | undefined {
  try {
    return (JSON.parse(body?.toString('utf8') ?? '') as { message?: { header?: { status_code?: number; hint?: string }; body?: unknown } })?.message;
  } catch {
    return undefined;
  }
}

/** The envelope's `message.header.status_code`, or 0. */
function envelopeStatus(body: Buffer): number {
  const status = envelopeOf(body)?.header?.status_code;
  return typeof status === 'number' ? status : 0;
}

function errorName(err: Error & { code?: string }): string {
  if (err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT' || err.code === 'UND_ERR_CONNECT_TIMEOUT') return 'timeout';
  if (err.code?.startsWith('UND_ERR_')) return err.code.slice(8).toLowerCase();
  return err.code ?? err.name;
}
