/**
 * Structured JSON logs (pino) on stdout. Nothing logged may hold a key, token or secret: request
 * logs carry the key's public `key_id`, never the `apikey` parameter or an Authorization header, and
 * the redact paths below drop such fields should any caller pass them by mistake.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'refrain' },
      redact: {
        paths: ['apikey', 'key', 'token', 'authorization', 'secret', 'password', '*.apikey', '*.key', '*.token', '*.authorization', '*.secret', '*.password'],
        censor: '[redacted]',
      },
    },
    destination as never,
  );
}

/** Remove credentials from a query string before it is logged. */
export function redactQuery(query: string): string {
  return query.replace(/(^|&)(apikey|access_token|token)=[^&]*/gi, '$1$2=[redacted]');
}
