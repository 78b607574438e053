/**
 * Query parameters as real clients of the public API send them (docs/design.md §3): unknown parameters
 * are ignored, empty values count as absent, ids arrive as strings, booleans as 1/0/true/false in any
 * case, sorts as asc/desc in any case. These zod pieces are built once at module load.
 */
import { z } from 'zod';
import countries from 'i18n-iso-countries';
import { noHidden } from '../util/hidden.js';

/** The query string as a map; the first of repeated parameters wins, empty values are dropped. */
export function parseQuery(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!query) return out;
  for (const [k, v] of new URLSearchParams(query)) {
    if (v !== '' && !(k in out)) out[k] = v;
  }
  return out;
}

const ID = 'must be a positive integer id';
/** Digits, with ASCII spaces around them tolerated (`track_id= 1 `); nothing else. */
export const idParam = z
  .string()
  .superRefine(noHidden(ID))
  .regex(/^ *\d{1,10} *$/, ID)
  .transform(Number)
  .refine((n) => n >= 1 && n <= 0xffff_fffe, ID);

export const boolParam = z
  .string()
  .regex(/^(1|0|true|false)$/i, 'must be 1, 0, true or false')
  .transform((s) => s === '1' || s.toLowerCase() === 'true');

export const sortParam = z
  .string()
  .regex(/^(asc|desc)$/i, 'must be asc or desc')
  .transform((s) => s.toLowerCase() as 'asc' | 'desc');

export const intParam = (min: number, max: number) =>
  z
    .string()
    .superRefine(noHidden(`must be an integer from ${min} to ${max}`))
    .regex(/^ *-?\d{1,9} *$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be an integer from ${min} to ${max}`);

export const isrcParam = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,24}$/, 'must be an ISRC such as USUM71703861')
  .transform((s) => s.replace(/-/g, '').toUpperCase());

export const codeParam = z.string().superRefine(noHidden('must be an id as the service gives it')).max(64, 'is too long');

/** ISO 3166-1 alpha-2, any case; XW is the worldwide code. */
export const countryParam = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine((s) => s === 'XW' || countries.isValid(s), 'must be an ISO 3166-1 alpha-2 country code such as US');

/** YYYYMMDD, as the public API's release-date filters take it; output YYYY-MM-DD. */
export const yyyymmddParam = z
  .string()
  .regex(/^\d{8}$/, 'must be a date as YYYYMMDD')
  .transform((s) => `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`);

export const pageParams = {
  page: intParam(1, 100_000).default(1),
  page_size: intParam(1, 100).default(10),
};

/**
 * The hint of a failed parameter validation: which parameter (a path inside a body, as
 * `data.owners.writer[1].ipi`), and what it must be. `input` (what was validated) tells a missing
 * value from a wrong one.
 */
export function paramHint(error: z.ZodError, input?: unknown): string {
  const issue = error.issues[0];
  const name = issue.path.length
    ? issue.path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('')
    : 'parameters';
  let value: unknown = input;
  for (const k of issue.path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[k] : undefined;
  return `${name} ${issue.code === 'invalid_type' && value === undefined ? 'is required' : issue.message}`;
}
