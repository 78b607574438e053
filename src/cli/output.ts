import { nativeStatus } from '../util/native.js';

/** How commands print results: one JSON object with `--json` (for scripts), readable text otherwise. */
export function emit(json: boolean, value: object, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`);
}

/**
 * One line on stderr when Refrain's native addon (native-index/) did not load, so that an operator
 * knows why writes (and, serving with `--engine auto`, fingerprints) cost more than the documented
 * figures: the TypeScript implementations answer.
 */
export function warnWithoutNative(engine?: { name: string; why?: string }): void {
  const status = nativeStatus();
  if (status === 'native') return;
  const slower = engine?.why
    ? 'fingerprints answered by the TypeScript kernel and records compressed by the TypeScript code (slower)'
    : 'compressing records with the TypeScript code (slower writes)';
  process.stderr.write(`native addon ${status}: ${slower}\n`);
}
