/** How commands print results: one JSON object with `--json` (for scripts), readable text otherwise. */
export function emit(json: boolean, value: object, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`);
}
