/**
 * File and gzip errors in words an operator can act on: "truncated gzip data" rather than
 * `Z_BUF_ERROR` and a stack trace (issue 11 #17). The CLI prints `<file>: <problem>` on one line.
 */

const PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
  EEXIST: 'already exists',
  Z_BUF_ERROR: 'the gzip data is truncated (unexpected end of file)',
  Z_DATA_ERROR: 'the gzip data is corrupt',
};

/** The error code of a Node system or zlib error, if it has one. */
export function errorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The problem in words, without the file name: known codes get a phrase, others their message. */
export function fileProblem(e: unknown): string {
  const code = errorCode(e);
  if (code && PROBLEMS[code]) return PROBLEMS[code];
  const message = e instanceof Error ? e.message : String(e);
  return code ? `${message} (${code})` : message;
}

/** True for errors fileProblem has words for: the ones the CLI shows without a stack trace. */
export const isFileError = (e: unknown): boolean => PROBLEMS[errorCode(e) ?? ''] !== undefined;

/** The error code of an unreadable or unwritable file: survives a worker thread's error cloning. */
export const FILE_ERROR = 'REFRAIN_FILE';

/**
 * An error saying which file failed and how, in one line, marked with FILE_ERROR so callers (and the
 * main thread, after a worker's error crossed over) recognise it by its code, not its text.
 */
export function fileError(file: string, cause: unknown): Error {
  if (errorCode(cause) === FILE_ERROR) return cause as Error;
  return Object.assign(new Error(`${file}: ${fileProblem(cause)}`), { code: FILE_ERROR });
}
