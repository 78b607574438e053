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
  const { values } = parseArgs({ options });
  const parsed: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(defaults)) {
    const value = values[name];
    if (typeof d === 'number') parsed[name] = number(name, String(value));
    else if (Array.isArray(d)) parsed[name] = String(value).split(',').map((v) => number(name, v));
    else parsed[name] = value;
  }
  return parsed as Parsed<T>;
}

function number(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
  return n;
}
