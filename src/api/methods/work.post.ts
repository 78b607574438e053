/**
 * Submits publishing data for a musical work (spec "POST /ws/1.1/work.post", docs/design.md §7,
 * docs/api.md): stored per (submitter, identifier), collections kept by validity date, every
 * submission recorded; the answer is the spec's Work record. Enterprise plan; tokens need
 * `works:write`.
 */
import { z } from 'zod';
import { defineMethod } from '../method.js';
import { workInput } from '../../works/schema.js';
import { presentWork } from '../../works/present.js';
import { Work } from '../../works/resource.js';

export default defineMethod({
  name: 'work.post',
  http: 'POST',
  summary: 'Submit publishing data for a musical work: owners and shares, collection per territory, ISWC, ISRCs (enterprise plan)',
  plans: ['enterprise'],
  scope: 'works:write',
  params: z.object({ data: workInput }),
  body: Work,
  statuses: [400, 403, 413],
  // Asynchronous: the write waits for LMDB's write lock off the event loop (an import may hold it).
  async handle(ctx, p) {
    const { work, submissions, source } = await ctx.works.submit({ id: ctx.caller.key_id, name: ctx.caller.label }, p.data, ctx.now);
    return presentWork(work, submissions, source);
  },
});
