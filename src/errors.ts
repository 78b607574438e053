/**
 * The one error type of Refrain. Handlers throw it; `src/http/respond.ts` turns it into the
 * envelope (`header.status_code`, `header.hint`, `body: []`). The CLI prints its hint.
 *
 * Status codes follow docs/design.md §3: 400 bad syntax, 401 auth failed, 402 usage limit, 403 plan or
 * scope, 404 not found, 405 unknown API method, 410 gone (sunset), 413 body too large,
 * 429 rate limited, 500 internal, 503 busy.
 */
export type StatusCode = 400 | 401 | 402 | 403 | 404 | 405 | 410 | 413 | 429 | 500 | 503;

export class RefrainError extends Error {
  readonly status: StatusCode;
  readonly hint: string;
  /** Extra response headers (for example `Retry-After` on 429). */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(status: StatusCode, hint: string, headers?: Record<string, string>) {
    super(hint);
    this.name = 'RefrainError';
    this.status = status;
    this.hint = hint;
    this.headers = headers;
  }
}

export const badRequest = (hint: string): RefrainError => new RefrainError(400, hint);
export const notFound = (hint = 'not found'): RefrainError => new RefrainError(404, hint);
export const forbidden = (hint = 'Forbidden'): RefrainError => new RefrainError(403, hint);
