import { nativeStatus } from '../util/native.js';

/** How commands print results: one JSON object with `--json` (for scripts), readable text otherwise. */
export function emit(json: boolean, value: object, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`);
}

/**
 * One line on stderr when Refrain's native addon (native-index/) did not load, so that an operator
 * knows why writes cost more than the documented figures: the TypeScript implementations answer.
 */
export function warnWithoutNative(): void {
  const status = nativeStatus();
  if (status !== 'native') process.stderr.write(`native addon ${status}: compressing records with the TypeScript code (slower writes)\n`);
}
