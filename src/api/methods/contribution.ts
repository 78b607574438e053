/** What track.lyrics.post and track.lyrics.feedback.post share: who may send, who sent, where it goes. */
import type { ApiContext } from '../method.js';
import type { NewContribution } from '../../contributions/store.js';
import { presentContribution } from '../../contributions/present.js';

/** Stores a contribution for review and answers `{contribution: {…}}` (the same one again for a repeat). */
export async function contribute(ctx: ApiContext, input: NewContribution): Promise<object> {
  const submitter = { id: ctx.caller.key_id, name: ctx.caller.label, ...(ctx.caller.sub ? { user: ctx.caller.sub } : {}) };
  const record = await ctx.contributions.submit(submitter, input, ctx.options.contributions, ctx.now);
  return { contribution: presentContribution(record) };
}
