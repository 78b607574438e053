/**
 * Discovery: what a run learns of the target's catalog through the API itself, with the caller's
 * own credentials, before it loads it. The top chart gives tracks in popularity order (its first
 * pages, then single pages further down so the long tail is present), and `track.lyrics.get` the
 * lyrics that fingerprint texts are cut from. It costs about tracks/100 + 8 + lyrics requests,
 * counted against the key's quota like any other.
 */
import { RefrainError } from '../errors.js';
import type { TargetClient } from './client.js';

export interface SampleTrack {
  trackId: number;
  commontrackId: number;
  name: string;
  artist: string;
  artistId: number;
  albumId: number;
  hasLyrics: boolean;
}

export interface CatalogSample {
  /** Most popular first. */
  tracks: SampleTrack[];
  lyrics: { track: SampleTrack; body: string }[];
  /** Requests discovery made. */
  requests: number;
  /** The key's daily quota left, as the target last said (`x-refrain-quota-remaining`); undefined: no quota. */
  quotaRemaining?: number;
}

interface TrackJson {
  track_id: number;
  commontrack_id: number;
  track_name: string;
  artist_name: string;
  artist_id: number;
  album_id: number;
  has_lyrics: number;
  restricted?: number;
}

const PAGE = 100;
/** Pages read further down the chart (when it is that long), so that rarely asked tracks are in the sample. */
const TAIL_PAGES = [10, 30, 100, 300, 1000, 3000, 10000, 30000];
const PARALLEL = 8;

/** Refused by the target (a bad key, a plan without the method): stop with its words. */
function refusal(what: string, status: number, hint: string | undefined): RefrainError {
  return new RefrainError('forbidden', `${what}: the target answered ${status}${hint ? ` (${hint})` : ''}`);
}

async function call<B>(client: TargetClient, path: string, state: { requests: number; quota?: number }): Promise<{ status: number; body?: B; hint?: string }> {
  const { outcome, envelope } = await client.getEnvelope(path);
  state.requests++;
  if (outcome.quotaRemaining !== undefined) state.quota = outcome.quotaRemaining;
  if (outcome.error) throw new RefrainError('unavailable', `GET ${path.split('?')[0]}: ${outcome.error === 'timeout' ? 'no answer in time' : outcome.error} — is the target up?`);
  const status = outcome.envelope || envelope?.header?.status_code || outcome.http;
  return { status, body: envelope?.body as B | undefined, hint: envelope?.header?.hint };
}

const sampleTrack = (t: TrackJson): SampleTrack => ({
  trackId: t.track_id,
  commontrackId: t.commontrack_id,
  name: t.track_name,
  artist: t.artist_name,
  artistId: t.artist_id,
  albumId: t.album_id,
  hasLyrics: t.has_lyrics === 1,
});

/** Run `work` over `items`, `PARALLEL` at a time. */
async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

export async function discover(client: TargetClient, options: { tracks: number; lyrics: number }, onProgress?: (what: string) => void): Promise<CatalogSample> {
  const state: { requests: number; quota?: number } = { requests: 0 };
  const chart = (page: number) => call<{ track_list: { track: TrackJson }[] }>(client, `/ws/1.1/chart.tracks.get?chart_name=top&page_size=${PAGE}&page=${page}`, state);
  const first = await chart(1);
  if (first.status !== 200) throw refusal('chart.tracks.get (discovering the catalog)', first.status, first.hint);
  const pages = new Map<number, TrackJson[]>([[1, first.body?.track_list.map((t) => t.track) ?? []]]);
  const head = Math.ceil(options.tracks / PAGE);
  let ended = (pages.get(1)?.length ?? 0) < PAGE;
  const wanted = ended ? [] : [...Array.from({ length: head - 1 }, (_, i) => i + 2), ...TAIL_PAGES.filter((p) => p > head)];
  await inParallel(wanted, async (page) => {
    if (ended) return;
    const r = await chart(page);
    const list = r.status === 200 ? (r.body?.track_list.map((t) => t.track) ?? []) : [];
    if (list.length === 0) ended = page > head || ended;
    pages.set(page, list);
    onProgress?.(`discovering: ${[...pages.values()].reduce((n, l) => n + l.length, 0)} tracks`);
  });
  const seen = new Set<number>();
  const tracks: SampleTrack[] = [];
  for (const page of [...pages.keys()].sort((a, b) => a - b)) {
    for (const t of pages.get(page)!) {
      if (seen.has(t.track_id) || t.restricted) continue;
      seen.add(t.track_id);
      tracks.push(sampleTrack(t));
    }
  }
  if (tracks.length === 0) throw new RefrainError('not_found', 'the target\'s top chart is empty: there is no catalog to load-test (import one first)');

  // Lyrics from tracks spread over the sample, most popular first.
  const withLyrics = tracks.filter((t) => t.hasLyrics);
  const stride = Math.max(1, withLyrics.length / options.lyrics);
  const chosen = Array.from({ length: Math.min(options.lyrics, withLyrics.length) }, (_, i) => withLyrics[Math.floor(i * stride)]);
  const lyrics: CatalogSample['lyrics'] = [];
  await inParallel(chosen, async (track) => {
    const r = await call<{ lyrics: { lyrics_body: string; restricted?: number } }>(client, `/ws/1.1/track.lyrics.get?track_id=${track.trackId}`, state);
    const body = r.body?.lyrics?.lyrics_body;
    if (r.status === 200 && body && !r.body?.lyrics.restricted) lyrics.push({ track, body });
    onProgress?.(`discovering: ${tracks.length} tracks, ${lyrics.length} lyrics`);
  });
  lyrics.sort((a, b) => tracks.indexOf(a.track) - tracks.indexOf(b.track));
  return { tracks, lyrics, requests: state.requests, quotaRemaining: state.quota };
}
