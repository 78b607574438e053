/**
 * Screening many texts in one request (beyond the public API; docs/api.md, "Batch screening"):
 * NDJSON in, one `{"id", "text"}` per line, and NDJSON out, one line per text as it is screened,
 * in the order the texts finish: `{"id", "status_code", "hint"?, "track_list"}`, the track_list
 * exactly what track.lyrics.fingerprint.post answers for that text with the same `size` and
 * `limit`. The texts run in index workers a few at a time (src/api/batch.ts), each text counts
 * against the caller's quota, and a line that cannot be screened gets its own error line.
 */
import { z } from 'zod';
import { defineMethod } from '../method.js';
import single from './track.lyrics.fingerprint.post.js';
import { Track } from '../resources.js';

export default defineMethod({
  name: 'track.lyrics.fingerprint.batch.post',
  http: 'POST',
  summary:
    'Screen many texts in one request: NDJSON in ({"id","text"} per line), NDJSON out, one line per text as it is screened (enterprise plan)',
  plans: ['enterprise'],
  scope: 'fingerprint',
  pool: 'fingerprint',
  input: 'ndjson',
  // Each line's text is screened as the single method screens its `data.text`, with the query's size and limit.
  params: single.params,
  body: z.object({
    id: z.union([z.string(), z.number()]).nullable().describe('the line\'s id, as sent (null when the line could not be read)'),
    status_code: z.number().describe('200, or the status track.lyrics.fingerprint.post would answer for this text (400, 402, 429, 503)'),
    hint: z.string().optional().describe('why the text was not screened'),
    track_list: z.array(z.object({ similarity: z.number(), matched_chars: z.number(), longest_match: z.number(), track: Track })),
  }),
  statuses: [400, 403, 503],
  handle: single.handle,
});
