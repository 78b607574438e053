/**
 * Lyrics, Subtitle, Richsync and Snippet resources. Every one carries tracking URLs for the caller's
 * key and the track's region restriction; restricted content keeps its fields but loses its body.
 */
import type { JsonFragment } from '../serialized.js';
import type { LyricsRecord, RichsyncRecord, SnippetRecord, SubtitleRecord, TrackRecord, Translation } from '../../catalog/records.js';
import type { ApiContext } from '../method.js';
import { isRestricted, RESTRICTED_NOTICE } from '../restrict.js';
import { languageDescription } from './language.js';
import type { TrackedContent } from '../links.js';
import { creditsOfTrack } from './track.js';

/** Share of the lyrics the free plan gets, as the public service does. */
export const FREE_SHARE = 0.3;
export const FREE_NOTICE = 'This Lyrics is NOT for Commercial use and only 30% of the lyrics are returned.';
const FREE_FOOTER = '...\n\n******* This Lyrics is NOT for Commercial use *******';

/** The first 30% of the lyrics, cut at a line end (at least one line), and the non-commercial notice. */
export function freeExcerpt(body: string): string {
  const target = Math.ceil(body.length * FREE_SHARE);
  const lines = body.split('\n');
  let kept = '';
  for (const line of lines) {
    const next = kept ? `${kept}\n${line}` : line;
    if (kept && next.length > target) break;
    kept = next;
  }
  if (kept.length > target) kept = kept.slice(0, target);
  return `${kept.trimEnd()}\n${FREE_FOOTER}`;
}

/** The copyright line with the free plan's notice after it, as one sentence after another ("…Refrain. This Lyrics is NOT…"). */
function withNotice(copyright: string): string {
  return `${copyright}${/[.!?]$/.test(copyright.trimEnd()) ? '' : '.'} ${FREE_NOTICE}`;
}

interface Restrictable {
  restricted: 0 | 1;
  region_restriction: { allowed: string[]; blocked: string[] };
  lyrics_copyright: string;
}

function access(ctx: ApiContext, c: Restrictable) {
  const restricted = isRestricted(c.restricted, c.region_restriction, ctx.country);
  return { restricted, copyright: restricted ? RESTRICTED_NOTICE : c.lyrics_copyright };
}

const tracking = (ctx: ApiContext, t: TrackRecord, content: TrackedContent) => ctx.links.tracking(ctx.caller.key_id, t.track_id, content);

export function presentLyrics(ctx: ApiContext, t: TrackRecord, l: LyricsRecord): Record<string, unknown> {
  const { restricted, copyright } = access(ctx, l);
  const free = ctx.caller.plan === 'free' && !restricted;
  return {
    lyrics_id: l.lyrics_id,
    verified: l.verified,
    restricted: restricted ? 1 : 0,
    instrumental: l.instrumental,
    explicit: l.explicit,
    lyrics_body: restricted ? '' : free ? freeExcerpt(l.lyrics_body) : l.lyrics_body,
    lyrics_language: l.lyrics_language,
    lyrics_language_description: languageDescription(l.lyrics_language),
    ...tracking(ctx, t, 'lyrics'),
    lyrics_copyright: free ? withNotice(copyright) : copyright,
    ...creditsOfTrack(ctx, t),
    backlink_url: ctx.links.sharePage(t),
    updated_time: l.updated_time,
    region_restriction: l.region_restriction,
  };
}

/**
 * `lyrics_translated` of track.lyrics.translation.get: restricted where the lyrics are (or the
 * translation itself is), cut to the free plan's excerpt like the lyrics; `{}` without a translation.
 */
export function presentLyricsTranslation(ctx: ApiContext, t: TrackRecord, l: LyricsRecord, x: Translation | undefined): Record<string, unknown> {
  if (!x) return {};
  const restricted = isRestricted(l.restricted || x.restricted, l.region_restriction, ctx.country);
  const free = ctx.caller.plan === 'free' && !restricted;
  return {
    lyrics_body: restricted ? '' : free ? freeExcerpt(x.lyrics_body) : x.lyrics_body,
    selected_language: x.language,
    restricted: restricted ? 1 : 0,
    ...tracking(ctx, t, 'lyrics_translation'),
  };
}

/** `subtitle_translated` of track.subtitle.translation.get (`body`: rendered in the requested format); `{}` without one. */
export function presentSubtitleTranslation(ctx: ApiContext, t: TrackRecord, s: SubtitleRecord, x: Translation | undefined, body: string): Record<string, unknown> {
  if (!x) return {};
  const restricted = isRestricted(s.restricted || x.restricted, s.region_restriction, ctx.country);
  return {
    subtitle_body: restricted ? '' : body,
    selected_language: x.language,
    restricted: restricted ? 1 : 0,
    ...tracking(ctx, t, 'subtitle_translation'),
  };
}

export function presentSubtitle(ctx: ApiContext, t: TrackRecord, s: SubtitleRecord, body: string): Record<string, unknown> {
  const { restricted, copyright } = access(ctx, s);
  return {
    subtitle_id: s.subtitle_id,
    restricted: restricted ? 1 : 0,
    subtitle_body: restricted ? '' : body,
    subtitle_language: s.subtitle_language,
    subtitle_language_description: languageDescription(s.subtitle_language),
    subtitle_length: s.subtitle_length,
    ...tracking(ctx, t, 'subtitle'),
    lyrics_copyright: copyright,
    ...creditsOfTrack(ctx, t),
    updated_time: s.updated_time,
    region_restriction: s.region_restriction,
  };
}

/**
 * A richsync's fields; its body, from Catalog.getRichsyncJson, as a JSON string's bytes to splice in
 * (serialized.ts), made only when the caller may see it.
 */
export function presentRichsync(
  ctx: ApiContext, t: TrackRecord, r: Omit<RichsyncRecord, 'richsync_body'>, body: () => JsonFragment,
): Record<string, unknown> {
  const { restricted, copyright } = access(ctx, r);
  return {
    richsync_id: r.richsync_id,
    restricted: restricted ? 1 : 0,
    richsync_body: restricted ? '' : body(),
    lyrics_copyright: copyright,
    richsync_length: r.richsync_length,
    richsync_avg_count: r.richsync_avg_count,
    // The spec spells it with a double s; clients written against either spelling work (docs/design.md §3).
    richssync_language: r.richsync_language,
    richsync_language: r.richsync_language,
    richsync_language_description: languageDescription(r.richsync_language),
    ...tracking(ctx, t, 'richsync'),
    ...creditsOfTrack(ctx, t),
    updated_time: r.updated_time,
    region_restriction: r.region_restriction,
  };
}

export function presentSnippet(ctx: ApiContext, t: TrackRecord, s: SnippetRecord): Record<string, unknown> {
  const { restricted } = access(ctx, s);
  return {
    snippet_id: s.snippet_id,
    snippet_language: s.snippet_language,
    restricted: restricted ? 1 : 0,
    instrumental: s.instrumental,
    snippet_body: restricted ? '' : s.snippet_body,
    ...tracking(ctx, t, 'snippet'),
    updated_time: s.updated_time,
    region_restriction: s.region_restriction,
  };
}
