/**
 * Finding the track a request names. Every identifier form of the public API works: track_id,
 * commontrack_id, track_isrc, track_spotify_id, track_itunes_id (docs/design.md §3). When several are
 * given the first in that order decides. None → 400; an unknown one → 404.
 */
import type { Catalog, ContentKind, ContentRecords, IndexName } from '../catalog/store.js';
import type { TrackRecord } from '../catalog/records.js';
import { RefrainError } from '../errors.js';
import { codeParam, idParam, isrcParam } from './params.js';

export const trackIdParams = {
  track_id: idParam.optional().describe('Refrain track id'),
  commontrack_id: idParam.optional().describe('id shared by every version of a recording'),
  track_isrc: isrcParam.optional().describe('ISRC of the recording'),
  track_spotify_id: codeParam.optional().describe('Spotify track id'),
  track_itunes_id: codeParam.optional().describe('iTunes / Apple Music track id'),
};

export interface TrackIds {
  track_id?: number;
  commontrack_id?: number;
  track_isrc?: string;
  track_spotify_id?: string;
  track_itunes_id?: string;
}

/**
 * The track named by the parameters. `prefer` picks among several tracks behind one identifier
 * (the versions of a commontrack, tracks sharing an ISRC): the most popular one the first test
 * accepts, else the second, …, else the most popular.
 */
export function findTrack(catalog: Catalog, p: TrackIds, ...prefer: ((t: TrackRecord) => boolean)[]): TrackRecord {
  if (p.track_id !== undefined) {
    const t = catalog.getTrack(p.track_id);
    if (!t) throw new RefrainError('not_found', `no track with track_id ${p.track_id}`);
    return t;
  }
  const [index, key, name] = pickIndex(p);
  const candidates = catalog.tracksOf(index, key, 200);
  if (candidates.length === 0) throw new RefrainError('not_found', `no track with ${name} ${key}`);
  for (const test of prefer) {
    const found = candidates.find(test);
    if (found) return found;
  }
  return candidates[0];
}

function pickIndex(p: TrackIds): [IndexName, string | number, string] {
  if (p.commontrack_id !== undefined) return ['commontrack', p.commontrack_id, 'commontrack_id'];
  if (p.track_isrc !== undefined) return ['isrc', p.track_isrc, 'track_isrc'];
  if (p.track_spotify_id !== undefined) return ['spotify', p.track_spotify_id, 'track_spotify_id'];
  if (p.track_itunes_id !== undefined) return ['itunes', p.track_itunes_id, 'track_itunes_id'];
  throw new RefrainError('bad_request', 'one of track_id, commontrack_id, track_isrc, track_spotify_id, track_itunes_id is required');
}

const HAS: Record<ContentKind, (t: TrackRecord) => boolean> = {
  lyrics: (t) => t.has_lyrics === 1,
  subtitles: (t) => t.has_subtitles === 1,
  richsync: (t) => t.has_richsync === 1,
  snippets: (t) => t.has_snippet === 1,
  analysis: (t) => t.has_lyrics_analysis === 1,
  translations: (t) => t.track_lyrics_translation_status.length > 0,
};
const NAME: Record<ContentKind, string> = {
  lyrics: 'lyrics', subtitles: 'subtitle', richsync: 'richsync', snippets: 'snippet', analysis: 'lyrics analysis', translations: 'translations',
};

/** The track named by the parameters, preferring one that has this kind of content. */
export function findTrackWith(catalog: Catalog, p: TrackIds, kind: ContentKind): TrackRecord {
  return findTrack(catalog, p, HAS[kind]);
}

/** Whether a track has this kind of content (by its flags, without reading the content). */
export function hasContent(t: TrackRecord, kind: ContentKind): boolean {
  return HAS[kind](t);
}

/** A track's content of one kind, or 404 saying the track has none. */
export function contentOf<K extends ContentKind>(catalog: Catalog, track: TrackRecord, kind: K): ContentRecords[K] {
  return catalog.getContent(kind, track.track_id) ?? noContent(track, kind);
}

/** The 404 of a track without content of one kind. */
export function noContent(track: TrackRecord, kind: ContentKind): never {
  throw new RefrainError('not_found', `track ${track.track_id} has no ${NAME[kind]}`);
}

/** The track named by the parameters and its content of one kind (404 when it has none). */
export function findContent<K extends ContentKind>(catalog: Catalog, p: TrackIds, kind: K): { track: TrackRecord; content: ContentRecords[K] } {
  const track = findTrackWith(catalog, p, kind);
  return { track, content: contentOf(catalog, track, kind) };
}
