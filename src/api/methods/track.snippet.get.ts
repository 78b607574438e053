import { z } from 'zod';
import { defineMethod } from '../method.js';
import { findTrack, trackIdParams } from '../lookup.js';
import { presentSnippet } from '../present/content.js';
import { Snippet } from '../resources.js';
import { notFound } from '../../errors.js';

export default defineMethod({
  name: 'track.snippet.get',
  http: 'GET',
  summary: 'A short lyric snippet of a track',
  cache: 'key',
  params: z.object(trackIdParams),
  body: z.object({ snippet: Snippet }),
  statuses: [400, 404],
  handle(ctx, p) {
    const track = findTrack(ctx.catalog, p, (t) => t.has_snippet === 1);
    const snippet = ctx.catalog.getContent('snippets', track.track_id);
    if (!snippet) throw notFound(`track ${track.track_id} has no snippet`);
    return { snippet: presentSnippet(ctx, track, snippet) };
  },
});
