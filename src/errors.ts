/**
 * The one error type of Refrain: a code that says what kind of failure it is, and a hint that says
 * what to do about it. Code raises it; whoever answers decides what the code means to its caller:
 * the API's envelope status (src/api/respond.ts, docs/design.md §3), an HTTP status (src/http/), the
 * CLI's message and exit code (src/cli/main.ts). A code survives a thread hop (`toWire`/`fromWire`):
 * an index worker's failure reaches the server as the same kind of error.
 *
 * OAuth's protocol errors (RFC 6749's own codes) are src/oauth/errors.ts.
 */
export const ERROR_CODES = [
  /** The request or input is malformed or invalid (bad parameter, bad file, bad flag). */
  'bad_request',
  /** No credentials, or credentials that are not valid. */
  'unauthorized',
  /** A usage limit (the daily quota) is spent. */
  'quota_exceeded',
  /** Valid credentials without the plan or scope needed. */
  'forbidden',
  'not_found',
  /** No such API method, or not with that verb. */
  'not_allowed',
  /** Withdrawn (a method past its sunset). */
  'gone',
  /** A body over its cap. */
  'too_large',
  'rate_limited',
  /** Too much work already waiting (an index query refused at admission, or one that ran past its deadline). */
  'busy',
  /** An index task ran past its deadline (the pool turns it into `busy` with the deadline in its hint). */
  'deadline',
  /** Something this depends on cannot be reached or used now (a primary to sync from, a lock another process holds). */
  'unavailable',
  /** Data received failed its checks (a feed's digest, length or gzip stream). */
  'integrity',
  /** The server cannot start as configured (shown to the operator without a stack trace). */
  'startup',
  /** A command line the CLI cannot run (an unknown flag, a missing argument): answered with its help. */
  'usage',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** What crosses a thread boundary for a RefrainError (structured clone keeps no class). */
export interface WireError {
  refrainError: { code: ErrorCode; hint: string; headers?: Record<string, string> };
}

export class RefrainError extends Error {
  readonly code: ErrorCode;
  readonly hint: string;
  /** Extra response headers when the error is answered over HTTP (for example `Retry-After` when busy). */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(code: ErrorCode, hint: string, headers?: Record<string, string>) {
    super(hint);
    this.name = 'RefrainError';
    this.code = code;
    this.hint = hint;
    this.headers = headers;
  }

  toWire(): WireError {
    return { refrainError: { code: this.code, hint: this.hint, headers: this.headers && { ...this.headers } } };
  }

  static fromWire(wire: WireError): RefrainError {
    const { code, hint, headers } = wire.refrainError;
    return new RefrainError(code, hint, headers);
  }
}

/** A value that is a RefrainError sent across threads. */
export const isWireError = (value: unknown): value is WireError =>
  typeof value === 'object' && value !== null && 'refrainError' in value;

/** Is `e` a RefrainError of this kind? */
export const isError = (e: unknown, code: ErrorCode): e is RefrainError => e instanceof RefrainError && e.code === code;
