/**
 * OAuth protocol errors (RFC 6749 §4.1.2.1 and §5.2): a registered error code, a description for
 * the developer, and the HTTP status the token endpoint answers with. Distinct from RefrainError,
 * whose envelope the /ws/1.1/ API uses: OAuth endpoints answer `{error, error_description}`.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  | 'temporarily_unavailable';

const STATUS: Record<OAuthErrorCode, 400 | 401 | 403 | 500 | 503> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  access_denied: 403,
  unsupported_response_type: 400,
  server_error: 500,
  temporarily_unavailable: 503,
};

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly description: string;
  readonly status: 400 | 401 | 403 | 500 | 503;
  /** Extra response headers (`WWW-Authenticate` for failed client authentication). */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(code: OAuthErrorCode, description: string, headers?: Record<string, string>) {
    super(`${code}: ${description}`);
    this.name = 'OAuthError';
    this.code = code;
    this.description = description;
    this.status = STATUS[code];
    this.headers = headers;
  }

  /** The JSON body of an error answer. */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

/** An error answered with an HTML page (the authorization endpoint's own errors, never redirected). */
export class PageError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 429 | 503,
    readonly title: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${title}: ${detail}`);
    this.name = 'PageError';
  }
}
