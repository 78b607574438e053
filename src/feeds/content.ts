/**
 * What a feed holds, as a stream of import-format lines.
 *
 * Full: every artist, album and track (with its content), in that order, so that importing it
 * into an empty data directory reproduces the catalog.
 *
 * Incremental: every record named by the change log in (fromSeq, toSeq], once, as it is now:
 * an upsert when it exists, a delete when it does not. Deletes come first (tracks, albums,
 * artists), then upserts (artists, albums, tracks): a delete on the replica cascades like the
 * primary's did (an album takes its tracks along), and any record that cascade touches but that
 * still exists on the primary changed in the same range, so its upsert follows and restores it.
 *
 * Records are read while the feed is written, so a record may be newer than toSeq; its later change
 * is logged after toSeq and is in the next incremental feed again. Applying a feed and then the
 * next one therefore always ends at the primary's state.
 */
import { everyId, type Catalog } from '../catalog/store.js';
import { WorkStore } from '../works/store.js';
import { albumLine, artistLine, deleteLine, trackLine, type RecordKind } from './lines.js';

/** Counts the lines a generator yielded. */
export interface LineCounter {
  records: number;
}

export function* fullFeedLines(catalog: Catalog, counter: LineCounter): Generator<string> {
  const works = new WorkStore(catalog);
  for (const { value } of catalog.artists.getRange(everyId())) {
    counter.records++;
    yield artistLine(value);
  }
  for (const { value } of catalog.albums.getRange(everyId())) {
    counter.records++;
    yield albumLine(value);
  }
  for (const { value } of catalog.tracks.getRange(everyId())) {
    counter.records++;
    yield trackLine(catalog, works, value);
  }
}

/** The records the change log names in (fromSeq, toSeq], each once, by kind, in id order. */
export function changedRecords(catalog: Catalog, fromSeq: number, toSeq: number): Record<RecordKind, number[]> {
  const seen: Record<RecordKind, Set<number>> = { track: new Set(), album: new Set(), artist: new Set() };
  for (const { key, value } of catalog.changesSince(fromSeq)) {
    if (key > toSeq) break;
    seen[value.kind].add(value.id);
  }
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return { track: sorted(seen.track), album: sorted(seen.album), artist: sorted(seen.artist) };
}

export function* incrementalFeedLines(catalog: Catalog, fromSeq: number, toSeq: number, counter: LineCounter): Generator<string> {
  const works = new WorkStore(catalog);
  const changed = changedRecords(catalog, fromSeq, toSeq);
  const exists: Record<RecordKind, (id: number) => boolean> = {
    track: (id) => catalog.tracks.doesExist(id),
    album: (id) => catalog.albums.doesExist(id),
    artist: (id) => catalog.artists.doesExist(id),
  };
  for (const kind of ['track', 'album', 'artist'] as const) {
    for (const id of changed[kind]) {
      if (exists[kind](id)) continue;
      counter.records++;
      yield deleteLine(kind, id);
    }
  }
  const upsert: Record<RecordKind, (id: number) => string | undefined> = {
    artist: (id) => {
      const artist = catalog.getArtist(id);
      return artist && artistLine(artist);
    },
    album: (id) => {
      const album = catalog.getAlbum(id);
      return album && albumLine(album);
    },
    track: (id) => {
      const track = catalog.getTrack(id);
      return track && trackLine(catalog, works, track);
    },
  };
  for (const kind of ['artist', 'album', 'track'] as const) {
    for (const id of changed[kind]) {
      const line = upsert[kind](id);
      if (line === undefined) continue;
      counter.records++;
      yield line;
    }
  }
}
