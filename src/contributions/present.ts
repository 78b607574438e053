/** A contribution as the API answers it (track.lyrics.post, track.lyrics.feedback.post) and as the CLI prints it. */
import { z } from 'zod';
import type { ContributionRecord } from './store.js';

export const Contribution = z.object({
  contribution_id: z.number(),
  contribution_type: z.enum(['lyrics', 'feedback']),
  status: z.enum(['pending', 'approved', 'rejected']),
  track_id: z.number(),
  lyrics_id: z.number().describe('the lyrics it is about, as they were when it was sent (0: the track had none)'),
  feedback: z.string().optional(),
  submitted_time: z.string(),
});

/** What the submitter sees: the contribution's id and state, never who else sent what. */
export function presentContribution(c: ContributionRecord): z.output<typeof Contribution> {
  return {
    contribution_id: c.contribution_id,
    contribution_type: c.type,
    status: c.status,
    track_id: c.track_id,
    lyrics_id: c.lyrics_id,
    ...(c.feedback ? { feedback: c.feedback } : {}),
    submitted_time: c.submitted_time,
  };
}
