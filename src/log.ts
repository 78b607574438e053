/**
 * Structured JSON logs (pino): on stdout, or in `--log-file`; on a terminal one readable line each
 * (logDestination), so they do not interleave JSON with the human startup messages. Nothing logged may hold a key, token or secret: request
 * logs carry the key's public `key_id`, never the `apikey` parameter or an Authorization header, and
 * the redact paths below drop such fields should any caller pass them by mistake.
 */
import { openSync } from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';
import { RefrainError } from './errors.js';
import { fileProblem } from './util/file-errors.js';

export type { Logger };

export function createLogger(level: string, destination?: NodeJS.WritableStream | DestinationStream): Logger {
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

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/**
 * One pino JSON line as a readable line: `12:03:04 INFO  listening  port=8080 url=…`. An error
 * shows its message (the stack stays in the JSON logs). Anything that is not JSON passes unchanged.
 */
export function prettyLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (!record || typeof record !== 'object') return line;
  const { level, time, msg, service: _service, pid: _pid, hostname: _hostname, err, ...rest } = record;
  const clock = typeof time === 'number' ? new Date(time).toTimeString().slice(0, 8) : '--:--:--';
  const name = LEVEL_NAMES[level as number] ?? String(level);
  const fields = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  if (err && typeof err === 'object') fields.push(`err=${JSON.stringify((err as { message?: unknown }).message ?? err)}`);
  return `${clock} ${name.padEnd(5)} ${typeof msg === 'string' ? msg : ''}${fields.length ? `  ${fields.join(' ')}` : ''}`;
}

export interface LogOutput {
  /** Write JSON lines to this file (appended) instead of standard output. */
  file?: string;
  /** Standard output's format; `auto` is pretty on a terminal and JSON otherwise. */
  format: 'auto' | 'json' | 'pretty';
}

/** Where the logs go: JSON to the file, readable lines on `stdout`, or undefined: pino's JSON on stdout. */
export function logDestination(output: LogOutput, stdout: NodeJS.WriteStream = process.stdout): DestinationStream | undefined {
  if (output.file) {
    let fd: number;
    try {
      fd = openSync(output.file, 'a');
    } catch (e) {
      throw new RefrainError('bad_request', `cannot write the log file ${output.file}: ${fileProblem(e)}`);
    }
    return pino.destination({ fd, sync: true });
  }
  const pretty = output.format === 'pretty' || (output.format === 'auto' && Boolean(stdout.isTTY));
  if (!pretty) return undefined;
  return {
    write(chunk: string) {
      const lines = chunk.split('\n').filter(Boolean);
      stdout.write(lines.map(prettyLine).join('\n') + '\n');
    },
  };
}
