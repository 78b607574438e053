/** The lines of a batch's answer that say a text was not screened (src/api/batch.ts, pool-worker.ts). */
import { RefrainError } from '../errors.js';
import { STATUS } from './respond.js';

/** `{"id", "status_code", "hint", "track_list": []}` and a newline, for an error of one text. */
export function batchErrorLine(id: string | number | null, e: unknown): string {
  const error = e instanceof RefrainError ? e : new RefrainError('internal', 'internal error');
  const hint = error.code === 'busy' ? `this text was not screened (${error.hint}); send it again` : error.hint;
  return `${JSON.stringify({ id, status_code: STATUS[error.code], hint, track_list: [] })}\n`;
}
