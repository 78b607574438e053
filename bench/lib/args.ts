/**
 * The benches' command lines: node:util parseArgs (strict, so a mistyped option is an error, not
 * ignored), each option declared by its default, so that a number comes back a number and a list a
 * list: `--tracks 20000`, `--levels 256,700`, `--bin FILE`, `--smoke`.
 */
import { parseArgs } from 'node:util';

/** An option's default: a number, numbers (comma-separated on the command line), a string, a flag, or undefined for a string without one. */
type Default = number | readonly number[] | string | boolean | undefined;

type Parsed<T> = {
  [K in keyof T]: T[K] extends readonly number[] ? number[]
    : T[K] extends number ? number
    : T[K] extends boolean ? boolean
    : T[K] extends string ? string
    : string | undefined;
};

/** Parse the command line against options given by their defaults; a number option that is not a number is an error. */
export function benchArgs<T extends Record<string, Default>>(defaults: T): Parsed<T> {
  const options: Record<string, { type: 'string'; default?: string } | { type: 'boolean'; default: boolean }> = {};
  for (const [name, d] of Object.entries(defaults)) {
    options[name] = typeof d === 'boolean' ? { type: 'boolean', default: d } : d === undefined ? { type: 'string' } : { type: 'string', default: String(d) };
  }
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(usage(defaults));
    process.exit(0);
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ options }));
  } catch (e) {
    // A mistyped option: one line naming it, the options, and the usage exit status.
    console.error(`${(e as Error).message.split('\n')[0]}\n${usage(defaults)}`);
    process.exit(2);
  }
  const parsed: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(defaults)) {
    const value = values[name];
    if (typeof d === 'number') parsed[name] = number(name, String(value));
    else if (Array.isArray(d)) parsed[name] = String(value).split(',').map((v) => number(name, v));
    else parsed[name] = value;
  }
  return parsed as Parsed<T>;
}

/** The options with their defaults, one per line. */
function usage(defaults: Record<string, Default>): string {
  const lines = Object.entries(defaults).map(([name, d]) => `  --${name}${typeof d === 'boolean' ? '' : ` ${d === undefined ? '(none)' : String(d)}`}`);
  return `options (defaults shown; see the script's header comment):\n${lines.join('\n')}`;
}

function number(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n)) {
    console.error(`--${name} must be a number (got ${JSON.stringify(text)})`);
    process.exit(2);
  }
  return n;
}
