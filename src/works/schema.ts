/**
 * The `data` of a work.post request (spec "Work (work.post)", docs/design.md §7), validated once at the
 * edge: zod schemas built at module load, hints that name the field (`data.owners.writer[1].ipi
 * must be 9–11 digits`). Unknown fields are ignored, as for query parameters. What comes out is
 * canonical: codes upper case, ISRCs 12 characters, ISWC `T-123.456.789-C`, absent shares 0.
 */
import { z } from 'zod';
import { parseIsrc, parseIswc } from './codes.js';
import { collectionIssue, MAX_SHARE, ownershipIssue } from './shares.js';
import { isTerritory, normalizeTerritory } from './territories.js';
import { hiddenCharacter, noHidden } from '../util/hidden.js';

/** The identifier's limit: a publisher's own work code (CWR allows 14; catalogue systems use more). */
export const MAX_IDENTIFIER = 40;
const MAX_LIST = 500;

/** CWR writer designation codes (CA composer/author, C composer, A author, AR arranger, …). */
export const WRITER_ROLES = ['CA', 'C', 'A', 'AR', 'AD', 'TR', 'SA', 'SR', 'PA'] as const;
/** CWR publisher type codes (E original publisher, AM administrator, SE sub-publisher, …). */
export const PUBLISHER_ROLES = ['E', 'AM', 'SE', 'PA', 'ES', 'AQ'] as const;

/** Control characters (NUL, line breaks, …) have no place in a work's text: CWR fields are plain text. */
const CONTROL = /\p{Cc}/u;
const noControl = (value: string, ctx: z.RefinementCtx) => {
  if (!CONTROL.test(value)) return;
  ctx.addIssue({ code: 'custom', message: `must not hold control characters: it holds ${hiddenCharacter(value)}`, input: value, abort: true });
};
const text = (max: number) => z.string('must be a string').trim().superRefine(noControl).max(max, `must be at most ${max} characters`);
const required = (max: number) => text(max).min(1, 'must not be empty');
const list = <T extends z.ZodType>(item: T) => z.array(item, 'must be an array').max(MAX_LIST, `must hold at most ${MAX_LIST} entries`);

const SHARE = `must be an integer from 0 to ${MAX_SHARE} (hundredths of a percent)`;
const share = z.int(SHARE).min(0, SHARE).max(MAX_SHARE, SHARE).default(0);

const DATE = 'must be a date as YYYY-MM-DD';
/**
 * Years from 1000: 0000 is CWR's "no date" (00000000) and ISO 8601's 1 BC, and years below 1000 are
 * placeholders or typos, never a rights period or a transmission.
 */
export const MIN_YEAR = 1000;
const date = z
  .string(DATE)
  .regex(/^\d{4}-\d{2}-\d{2}$/, DATE)
  .refine(isDate, DATE)
  .superRefine((s, ctx) => {
    if (Number(s.slice(0, 4)) < MIN_YEAR) {
      ctx.addIssue({ code: 'custom', message: `must be a date from the year ${MIN_YEAR} on, not ${s.slice(0, 4)} (leave the field out when there is no date)`, input: s });
    }
  });

/** A real calendar day (2021-02-30 is not); never throws on malformed input (zod runs every check). */
function isDate(s: string): boolean {
  const ms = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(s);
}

/** A code parsed by one of codes.ts's functions, its message as the hint. */
const code = (parse: typeof parseIsrc, what: string) =>
  z.string(`must be a string holding ${what}`).transform((s, ctx) => {
    const parsed = parse(s);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  });

const CONTROLLED = 'must be Y or N';
const controlled = z
  .union([z.boolean(), z.string().trim().regex(/^[YN]$/i, CONTROLLED)], CONTROLLED)
  .optional()
  .transform((v): 'Y' | 'N' => (v === true || (typeof v === 'string' && v.toUpperCase() === 'Y') ? 'Y' : 'N'));

const IPI = 'must be 9 to 11 digits (an IPI name number)';
const ipi = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string(IPI).trim().regex(/^\d{9,11}$/, IPI));

const role = (roles: readonly string[], what: string) => {
  const message = `must be a CWR ${what} code: ${roles.join(', ')}`;
  return z.string(message).trim().toUpperCase().refine((r) => roles.includes(r), message).optional().default('').describe(`CWR ${what} code: ${roles.join(', ')}`);
};

const owner = (roles: readonly string[], what: string) =>
  z.object(
    {
      name: required(200),
      identifier: text(40).default(''),
      ipi: ipi.optional().default(''),
      role: role(roles, what),
      controlled,
      mech_ownership_share: share,
      perf_ownership_share: share,
      sync_ownership_share: share,
      mech_society: text(40).default(''),
      perf_society: text(40).default(''),
      sync_society: text(40).default(''),
      validity_begin: date.optional(),
    },
    'must be an object',
  );

const TERRITORY = 'must be an ISO 3166-1 alpha-2 country (IT), XW or WORLD, or a UN M49 area code (150 = Europe)';
const territory = z.object(
  {
    code: z.string(TERRITORY).refine(isTerritory, TERRITORY).transform(normalizeTerritory).describe('ISO 3166-1 alpha-2 country, XW/WORLD, or UN M49 area code'),
    mech_share: share,
    perf_share: share,
    sync_share: share,
    publisher: text(200).nullable().optional().transform((p) => p || null),
  },
  'must be an object',
);

/** A title, or `{title}` as the response's alternate_titles write it. */
const title = z.union([required(500), z.object({ title: required(500) })], 'must be a title or {"title": "..."}').transform((t) => (typeof t === 'string' ? t : t.title));
/** A performer's name, or `{name}`. */
const performer = z.union([required(200), z.object({ name: required(200) })], 'must be a name or {"name": "..."}').transform((p) => (typeof p === 'string' ? p : p.name));

export const workInput = z
  .object(
    {
      identifier: required(MAX_IDENTIFIER).superRefine(noHidden('must be printable text')).describe("the submitter's own identifier of the work; with the submitter it names the work"),
      title: required(500),
      alternate_titles: list(title).default([]),
      iswc: code(parseIswc, 'an ISWC').optional().default('').describe('T-123.456.789-C or T1234567890, check digit verified'),
      isrc: z
        .preprocess((v) => (typeof v === 'string' ? [v] : v), list(code(parseIsrc, 'an ISRC')))
        .optional()
        .transform((l) => [...new Set(l ?? [])])
        .describe('ISRCs of recordings of the work: links it to catalog tracks'),
      performers: list(performer).default([]),
      owners: z
        .object(
          {
            publisher: list(owner(PUBLISHER_ROLES, 'publisher type')).default([]),
            writer: list(owner(WRITER_ROLES, 'writer designation')).default([]),
          },
          'must be an object with publisher and writer arrays',
        )
        .default({ publisher: [], writer: [] }),
      collection: z
        .object(
          {
            validity_begin: date,
            territories: list(territory).min(1, 'must list at least one territory'),
          },
          'must be an object with validity_begin and territories',
        )
        .optional(),
      validity_begin: date.optional(),
      validity_end: date.optional(),
      type_of_right: text(40).default(''),
      publisher_short_name: text(100).default(''),
      filename: text(255).default('').describe("name of the submitter's file this work came from, kept in the submission record"),
      transmission_date: date.optional().describe('day the submitter sent it (default: the day it arrived)'),
    },
    'must be an object: send {"data":{"identifier": "...", "title": "...", ...}}',
  )
  .superRefine((w, ctx) => {
    const issue = ownershipIssue(w.owners) ?? (w.collection && collectionIssue(w.collection.territories));
    if (issue) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    if (w.validity_begin && w.validity_end && w.validity_end < w.validity_begin) {
      ctx.addIssue({ code: 'custom', path: ['validity_end'], message: `must not be before validity_begin (${w.validity_begin})` });
    }
  });

export type WorkInput = z.output<typeof workInput>;
export type OwnerInput = WorkInput['owners']['writer'][number];
