import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findContent, trackIdParams } from '../lookup.js';
import { presentSnippet } from '../present/content.js';
import { Snippet } from '../resources.js';

export default defineMethod({
  name: 'track.snippet.get',
  http: 'GET',
  summary: 'A short lyric snippet of a track',
  cache: 'key',
  params: z.object(trackIdParams),
  body: z.object({ snippet: Snippet }),
  statuses: [400, 404],
  handle(ctx, p) {
    const { track, content } = findContent(ctx.catalog, p, 'snippets');
    return { snippet: presentSnippet(ctx, track, content) };
  },
});
