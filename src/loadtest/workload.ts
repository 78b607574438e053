/**
 * The requests a run replays, made once from the discovered sample so that sending costs nothing
 * but the send:
 *   - fingerprint: texts cut from the sampled lyrics as a screener receives them (the edits of
 *     bench/quality, `perturb.ts`): `exact` (a 200-character excerpt), `noisy` (reformatted, 5% of
 *     characters mistyped), `embedded` (the excerpt amid ~800 characters of prose: paragraphs of
 *     Refrain's own docs) and `line` (one lyric line of 4–9 words), in equal shares; each remembers
 *     its source track, so the report can say how often the answer found it;
 *   - track.search: a title word (q_track), a title word and the artist's last name
 *     (q_track_artist), or the artist's name (q_artist), in turn;
 *   - matcher.track.get: title and artist as listed (half), with a typo in the title (a quarter)
 *     or " - Live" appended (a quarter);
 *   - id lookups (track.get, track.lyrics.get, artist.get, album.get): tracks drawn by popularity,
 *     the rank-r track of the sample with P ∝ 1/r, as API traffic follows popular songs;
 *   - chart.tracks.get: one of its first five pages.
 * Each method's requests are cycled through in a shuffled order; the mix picks the method.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RefrainError } from '../errors.js';
import { zipfRank } from '../generate/distributions.js';
import { shuffled, type Rng } from '../generate/prng.js';
import { packageRoot } from '../util/package-root.js';
import type { LoadRequest } from './client.js';
import type { CatalogSample, SampleTrack } from './discover.js';
import type { RequestSource } from './load.js';
import { LOAD_METHODS, MixPicker, type LoadMethod, type MixEntry } from './mix.js';
import { charNoise, embed, excerpt, reformat } from './perturb.js';

/** Requests made per method (fingerprint: up to four per sampled lyric). */
const PER_METHOD = 2000;
const EXCERPT = 200;
const LINE_WORDS = { min: 4, max: 9 };
export const VARIANTS = ['exact', 'noisy', 'embedded', 'line'] as const;

/** Prose paragraphs of the package's docs (markdown stripped): the surroundings of `embedded` texts. */
export function docsProse(): string[] {
  const root = packageRoot();
  if (!root) return [];
  const dir = path.join(root.dir, 'docs');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const file of files) {
    for (const paragraph of readFileSync(path.join(dir, file), 'utf8').split(/\n\s*\n/)) {
      const text = paragraph.replace(/\s*\n\s*/g, ' ').trim();
      if (!/^[A-Z][a-z]/.test(text) || /[`|<>]/.test(text) || text.length < 120) continue;
      out.push(text.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\*\*?|__?/g, ''));
    }
  }
  return out;
}

/** The rank-r item with P ∝ 1/(r+1). */
const zipf = <T>(rng: Rng, items: readonly T[]): T => items[zipfRank(rng.float(), items.length)];

const get = (method: LoadMethod, params: Record<string, string | number>): LoadRequest => ({
  method,
  verb: 'GET',
  path: `/ws/1.1/${LOAD_METHODS[method]}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`,
});

const titleWords = (t: SampleTrack) => t.name.split(/[^\p{L}\p{N}']+/u).filter((w) => w.length > 2);

function fingerprintTexts(rng: Rng, sample: CatalogSample, prose: readonly string[]): LoadRequest[] {
  const out: LoadRequest[] = [];
  for (const { track, body } of sample.lyrics) {
    const cut = excerpt(rng, body, EXCERPT) ?? body.trim();
    const lines = body.split('\n').map((l) => l.trim()).filter((l) => {
      const words = l.split(/\s+/).length;
      return words >= LINE_WORDS.min && words <= LINE_WORDS.max;
    });
    const texts: [string, string | undefined][] = [
      ['exact', cut],
      ['noisy', charNoise(rng, reformat(rng, cut), 5)],
      ['embedded', prose.length ? embed(rng, cut, prose) : undefined],
      ['line', lines.length ? rng.pick(lines) : undefined],
    ];
    for (const [variant, text] of texts) {
      if (text === undefined) continue;
      out.push({
        method: 'fingerprint',
        verb: 'POST',
        path: '/ws/1.1/track.lyrics.fingerprint.post?size=10',
        body: JSON.stringify({ data: { text } }),
        source: { trackId: track.trackId, commontrackId: track.commontrackId, variant },
      });
    }
  }
  return out;
}

function searches(rng: Rng, tracks: readonly SampleTrack[]): LoadRequest[] {
  return Array.from({ length: PER_METHOD }, (_, i) => {
    const t = rng.pick(tracks);
    const words = titleWords(t);
    const word = words.length ? rng.pick(words) : t.name;
    const surname = t.artist.split(/\s+/).pop() ?? t.artist;
    if (i % 3 === 0) return get('track.search', { q_track: word });
    if (i % 3 === 1) return get('track.search', { q_track_artist: `${word} ${surname}` });
    return get('track.search', { q_artist: t.artist });
  });
}

function matches(rng: Rng, tracks: readonly SampleTrack[]): LoadRequest[] {
  return Array.from({ length: PER_METHOD }, (_, i) => {
    const t = rng.pick(tracks);
    let title = t.name;
    if (i % 4 === 2 && title.length > 4) {
      const at = rng.int(1, title.length - 2);
      title = title.slice(0, at) + title.slice(at + 1);
    } else if (i % 4 === 3) title = `${title} - Live`;
    return get('matcher.track.get', { q_track: title, q_artist: t.artist });
  });
}

/** Every method's requests, without the credentials (the source adds them). */
export function makeRequests(rng: Rng, sample: CatalogSample, mix: readonly MixEntry[], prose: readonly string[]): Map<LoadMethod, LoadRequest[]> {
  const withLyrics = sample.tracks.filter((t) => t.hasLyrics);
  const lookups = (method: LoadMethod, from: readonly SampleTrack[], param: (t: SampleTrack) => Record<string, number>) =>
    from.length ? Array.from({ length: PER_METHOD }, () => get(method, param(zipf(rng, from)))) : [];
  const out = new Map<LoadMethod, LoadRequest[]>();
  for (const { method } of mix) {
    let requests: LoadRequest[];
    switch (method) {
      case 'fingerprint':
        requests = fingerprintTexts(rng, sample, prose);
        break;
      case 'track.search':
        requests = searches(rng, sample.tracks);
        break;
      case 'matcher.track.get':
        requests = matches(rng, sample.tracks);
        break;
      case 'track.get':
        requests = lookups(method, sample.tracks, (t) => ({ track_id: t.trackId }));
        break;
      case 'track.lyrics.get':
        requests = lookups(method, withLyrics, (t) => ({ track_id: t.trackId }));
        break;
      case 'artist.get':
        requests = lookups(method, sample.tracks, (t) => ({ artist_id: t.artistId }));
        break;
      case 'album.get':
        requests = lookups(method, sample.tracks, (t) => ({ album_id: t.albumId }));
        break;
      case 'chart.tracks.get':
        requests = Array.from({ length: 5 }, (_, i) => get(method, { chart_name: 'top', page: i + 1, page_size: 10 }));
        break;
    }
    out.set(method, shuffled(rng, requests));
  }
  return out;
}

/** The mix over prepared requests: a method drawn by weight, then that method's next request. */
export class MixedSource implements RequestSource {
  private readonly picker: MixPicker;
  private readonly cursors = new Map<LoadMethod, number>();

  constructor(private readonly requests: Map<LoadMethod, LoadRequest[]>, mix: readonly MixEntry[], rng: Rng) {
    const empty = mix.filter((e) => (requests.get(e.method)?.length ?? 0) === 0).map((e) => e.method);
    if (empty.length) throw new RefrainError('not_found', `--mix: no requests could be made for ${empty.join(', ')} from the target's catalog (no tracks, or no lyrics readable with these credentials)`);
    this.picker = new MixPicker(mix, rng);
  }

  next(): LoadRequest {
    const method = this.picker.next();
    const list = this.requests.get(method)!;
    const at = this.cursors.get(method) ?? 0;
    this.cursors.set(method, at + 1 === list.length ? 0 : at + 1);
    return list[at];
  }
}
