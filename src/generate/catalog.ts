/**
 * The catalog stream: artists one after another, each followed by its albums, each album followed
 * by its tracks. Only the current artist and album are held, plus a bounded list of the artist's
 * earlier recordings for later versions to point at, so memory stays flat at any catalog size.
 * Every record is drawn from its own generator seeded by (seed, its index): output is a pure
 * function of the options.
 */
import { makeAlbum, planRelease, type AlbumContext } from './album.js';
import { makeArtist, remember, type ArtistContext } from './artist.js';
import { TRACK_ID_BASE } from './ids.js';
import { Rng, deriveSeed } from './prng.js';
import { recordingFor, type Recording } from './recording.js';
import { makeTrack, type Version, type VersionKind } from './track.js';

/** Stream number of the per-album draws that choose which tracks are versions. */
const STREAM = 5;

export interface CatalogCounters {
  artists: number;
  albums: number;
  tracks: number;
  lines: number;
}

interface Slot {
  readonly recording: Recording;
  readonly version?: Version;
}

/** Per-release state of `slotFor`: the songs this release already revisited. */
interface ReleaseState {
  readonly used: Set<number>;
  leadEdited: boolean;
}

/** What a track of a release is: a new recording or a version of one the artist released before. */
function slotFor(seed: number, rng: Rng, artist: ArtistContext, album: AlbumContext, trackId: number, lead: Recording, state: ReleaseState): Slot {
  const revisit = (kind: VersionKind): Slot | undefined => {
    // A few tries for a song this release has not used yet; small releases rarely need more.
    for (let attempt = 0; attempt < 4 && artist.released.length > 0; attempt++) {
      const earlier = rng.pick(artist.released);
      if (state.used.has(earlier.commontrackId)) continue;
      state.used.add(earlier.commontrackId);
      return { recording: recordingFor(seed, earlier.commontrackId, artist), version: { kind, firstReleaseDate: earlier.firstReleaseDate } };
    }
    return undefined;
  };
  let slot: Slot | undefined;
  if (album.type === 'Live') slot = rng.chance(0.85) ? revisit('live') : undefined;
  else if (album.type === 'Compilation') slot = revisit(rng.chance(0.5) ? 'remastered' : 'reissue');
  else if (album.type === 'Single') {
    // A single's other tracks are often an edit of its A-side.
    if (!state.leadEdited && rng.chance(0.5)) {
      state.leadEdited = true;
      slot = { recording: lead, version: { kind: rng.chance(0.6) ? 'radio-edit' : 'acoustic', firstReleaseDate: album.releaseDate } };
    }
  } else if (rng.chance(0.03)) slot = revisit('acoustic');
  return slot ?? { recording: trackId === lead.commontrackId ? lead : recordingFor(seed, trackId, artist) };
}

/**
 * Yields the catalog's lines in import order, updating `counters` before each line is yielded.
 * `tracks` must be within 0..MAX_TRACKS (checked by the caller).
 */
export function* catalogLines(seed: number, tracks: number, counters: CatalogCounters): Generator<string, void, undefined> {
  let artistN = 0;
  let albumN = 0;
  let trackN = 0;
  while (trackN < tracks) {
    const { context: artist, record } = makeArtist(seed, ++artistN);
    counters.artists++;
    counters.lines++;
    yield JSON.stringify(record);
    for (let a = 0; a < artist.albumsPlanned && trackN < tracks; a++) {
      const plan = planRelease(seed, ++albumN, artist);
      // The release's first new recording is drawn before the album line because singles and
      // title tracks name the album after it. On a live album or a best-of the first track is
      // usually a version instead, and `lead` is only used if it turns out to be new material.
      const isVersionAlbum = plan.type === 'Live' || plan.type === 'Compilation';
      const lead = recordingFor(seed, TRACK_ID_BASE + trackN + 1, artist);
      const { context: album, record: albumRecord } = makeAlbum(seed, albumN, artist, plan, lead.song.title);
      counters.albums++;
      counters.lines++;
      yield JSON.stringify(albumRecord);
      const rng = new Rng(deriveSeed(seed, albumN, STREAM));
      const state: ReleaseState = { used: new Set(), leadEdited: false };
      const count = Math.min(album.trackCount, tracks - trackN);
      for (let k = 0; k < count; k++) {
        const trackId = TRACK_ID_BASE + ++trackN;
        const { recording, version } = k === 0 && !isVersionAlbum ? { recording: lead, version: undefined } : slotFor(seed, rng, artist, album, trackId, lead, state);
        const line = JSON.stringify(makeTrack(seed, trackN, artist, album, recording, version));
        if (!version) remember(artist, { commontrackId: trackId, firstReleaseDate: album.releaseDate });
        counters.tracks++;
        counters.lines++;
        yield line;
      }
    }
  }
}
