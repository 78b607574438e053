/** The spec's Work record as a zod schema: work.post's response in the OpenAPI document, and what its tests check. */
import { z } from 'zod';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
const flag = z.union([z.literal(0), z.literal(1)]);

const Owner = z.object({
  id: z.number().describe('party id: the same for every work naming the same IPI'),
  type: z.enum(['writer', 'publisher']),
  name: z.string(),
  identifier: z.string(),
  ipi: z.string(),
  role: z.string().describe('CWR writer designation or publisher type code'),
  controlled: z.enum(['Y', 'N']),
  mech_ownership_share: z.number().describe('hundredths of a percent'),
  perf_ownership_share: z.number(),
  sync_ownership_share: z.number(),
  mech_society: z.string(),
  perf_society: z.string(),
  sync_society: z.string(),
  validity_begin: day.nullable(),
});

const Collection = z.object({
  territories: z.array(
    z.object({
      code: z.string(),
      countries: z.array(z.string()).describe('ISO 3166-1 alpha-2 countries the territory covers'),
      mech_share: z.number(),
      perf_share: z.number(),
      publisher: z.string().nullable(),
      sync_share: z.number(),
    }),
  ),
  validity_begin: day,
  validity_end: day.nullable().describe('the day before the next collection begins; null for the latest'),
});

export const Work = z.object({
  work_id: z.number(),
  wgid: z.string().describe('work group: works sharing an ISWC share it'),
  identifier: z.string(),
  title: z.string(),
  alternate_titles: z.array(z.object({ title: z.string() })),
  iswc: z.string(),
  isrc: z.array(z.string()),
  performers: z.array(z.object({ name: z.string() })),
  owners: z.object({ publisher: z.array(Owner), writer: z.array(Owner) }),
  ownership: z.array(z.object({ type_of_right: z.enum(['mech', 'perf', 'sync']), share: z.number(), controlled_share: z.number() })),
  collections: z.record(z.string(), Collection).describe('keyed by validity_begin'),
  publisher_short_name: z.string(),
  type_of_right: z.string(),
  validity_begin: day.nullable(),
  validity_end: day.nullable(),
  is_disabled: flag,
  last_trasmission: day.describe('day of the latest submission (the spec spells it so)'),
  source: z.object({
    id: z.number(),
    sender_id: z.string(),
    sender_name: z.string(),
    short_name: z.string(),
    description: z.string(),
    affiliation: z.string(),
    control: z.boolean(),
    credits_priority: z.number(),
    report: z.boolean(),
    type_of_right: z.string(),
    created: timestamp,
    last_updated: timestamp,
    validity_begin: day.nullable(),
    validity_end: day.nullable(),
  }),
  submissions: z.array(
    z.object({ id: z.number(), source: z.string(), filename: z.string(), creation_date: timestamp, transmission_date: day, disabled: flag }),
  ),
  tablespace: z.string(),
});
