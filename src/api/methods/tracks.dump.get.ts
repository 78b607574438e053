import { z } from 'zod';
import { defineMethod } from '../method.js';

/** Spec, "Feed entry (tracks.dump.get)". */
const FeedEntry = z.object({
  id: z.number().int(),
  created: z.string().describe('ISO 8601 UTC'),
  full: z.boolean().describe('true for a full feed, false for an incremental one'),
  download_url: z.url().describe('signed temporary URL of the gzip JSONL file (docs/import-format.md); expires after --feed-url-ttl'),
});

export default defineMethod({
  name: 'tracks.dump.get',
  http: 'GET',
  summary: 'Downloadable catalog feeds: the latest full feed, then every incremental feed built since',
  plans: ['enterprise'],
  scope: 'feeds:read',
  params: z.object({}),
  body: z.array(FeedEntry),
  statuses: [403],
  handle(ctx) {
    const entries = ctx.options.feeds.entries(ctx.now);
    ctx.header.available = entries.length;
    return entries;
  },
});
