/**
 * Applying import records to the catalog: upserts and deletes with their index entries and change
 * log, a batch per LMDB write transaction (all of a batch or none of it is committed).
 *
 * A track line is the whole track: content it does not carry (lyrics, subtitle, …) is removed.
 * A line identical to what is stored (same xxh64 of its normalised form) changes nothing and logs
 * nothing, so re-importing a file is a no-op.
 */
import { hashOf, type EncodedTrack, type HashedRecord } from './parse.js';
import type { Database } from 'lmdb';
import { CONTENT_KINDS, type Catalog, type ContentKind, type RecordDatabase } from './store.js';
import type { AlbumRecord, ArtistRecord, Change, TrackRecord } from './records.js';
import { albumSchema, artistSchema, type AlbumInput, type ArtistInput, type TrackInput } from './schema.js';
import { storedContent, syncedForms, trackRecord, withAlbum, type SyncedForms } from './derive.js';
import { isoSeconds } from '../util/date.js';
import { Appender } from './append.js';

export type Outcome = 'imported' | 'updated' | 'unchanged' | 'deleted' | 'absent';

/** What a track names of its album, to make the album's record when no line did: a track line's fields, or its record's. */
type AlbumSource = Pick<
  TrackInput,
  'album_id' | 'album_name' | 'track_name' | 'artist_id' | 'artist_name' | 'first_release_date' |
  'album_coverart_100x100' | 'album_coverart_350x350' | 'album_coverart_500x500' | 'album_coverart_800x800'
>;


/** What the writer applies: import records, and track lines the import's reading thread made ready to put. */
export type WriteEntry = HashedRecord | EncodedTrack;

/** Applies records in one write transaction; returns one outcome per record. */
export function applyBatch(catalog: Catalog, records: readonly WriteEntry[], now = Date.now()): Outcome[] {
  return catalog.writeTransaction(() => applyWithin(catalog, records, now));
}

/** Applies records inside the caller's write transaction (another write must commit with them): one of Catalog.writeTransaction. */
export function applyWithin(catalog: Catalog, records: readonly WriteEntry[], now = Date.now()): Outcome[] {
  const outcomes = new Writer(catalog, now).applyAll(records);
  catalog.sealDictionaries();
  return outcomes;
}

class Writer {
  private seq: number;
  private readonly time: string;
  /** New keys above a database's last go in as appends (append.ts): full pages for an import in id order. */
  private readonly appender = new Appender();
  /**
   * The album the last track was written under, as stored: the tracks of an album come together,
   * and reading it again for each of them was a decode per track. Forgotten when albums change.
   */
  private lastAlbum: AlbumRecord | undefined;

  constructor(
    private readonly c: Catalog,
    private readonly now: number,
  ) {
    this.seq = c.lastChange();
    this.time = isoSeconds(now);
  }

  applyAll(records: readonly WriteEntry[]): Outcome[] {
    return records.map((entry) => {
      if ('track' in entry) return this.putEncodedTrack(entry);
      const { record: r, hash, synced } = entry;
      switch (r.type) {
        case 'track':
          return this.putTrack(r, hash, synced);
        case 'artist':
          return this.putArtist(r, 0, hash);
        case 'album':
          return this.putAlbum(r, 0, hash);
        case 'delete':
          if (r.track_id !== undefined) return this.deleteTrack(r.track_id);
          if (r.album_id !== undefined) return this.deleteAlbum(r.album_id);
          return this.deleteArtist(r.artist_id!);
      }
    });
  }

  /** A record written through its database's writes (Catalog.recordWrites), appended when its id is the highest. */
  private putRecord(name: RecordDatabase, id: number, record: object): void {
    const writes = this.c.recordWrites(name);
    this.appender.put(writes.db, id, writes.stored(record));
  }

  private log(op: Change['op'], kind: Change['kind'], id: number): void {
    this.appender.put(this.c.changes, ++this.seq, { op, kind, id, at: this.now });
  }

  private putArtist(input: ArtistInput, derived: 0 | 1, hash: string): Outcome {
    const old = this.c.artists.get(input.artist_id);
    if (old && old.hash === hash) return 'unchanged';
    const { type: _type, ...fields } = input;
    const record: ArtistRecord = { ...fields, updated_time: input.updated_time ?? this.time, derived, hash };
    const chart = this.c.index.chart_artists;
    if (old) chart.removeSync([old.artist_rating, old.artist_id]);
    chart.putSync([record.artist_rating, record.artist_id], '');
    this.putRecord('artists', record.artist_id, record);
    this.c.noteGenres(record.primary_genres.music_genre_list);
    this.c.noteGenres(record.secondary_genres.music_genre_list);
    this.c.indexArtistGenres(record, old);
    this.log('put', 'artist', record.artist_id);
    return old ? 'updated' : 'imported';
  }

  private putAlbum(input: AlbumInput, derived: 0 | 1, hash: string): Outcome {
    const old = this.c.albums.get(input.album_id);
    if (old && old.hash === hash) return 'unchanged';
    const artist = this.c.artists.get(input.artist_id);
    if (!artist && input.artist_name) this.ensureArtist(input.artist_id, input.artist_name);
    const { type: _type, ...fields } = input;
    const record: AlbumRecord = {
      ...fields,
      artist_name: input.artist_name ?? artist?.artist_name ?? '',
      updated_time: input.updated_time ?? this.time,
      derived,
      hash,
    };
    if (old) this.c.index.artist_albums.removeSync([old.artist_id, old.album_id]);
    this.appender.put(this.c.index.artist_albums, [record.artist_id, record.album_id], '');
    this.putRecord('albums', record.album_id, record);
    this.lastAlbum = undefined;
    this.c.noteGenres(record.primary_genres.music_genre_list);
    this.log('put', 'album', record.album_id);
    return old ? 'updated' : 'imported';
  }

  /** A track names its artist and album; make records for them when no line did. */
  private ensureArtist(artistId: number, name: string): void {
    if (this.c.artists.doesExist(artistId)) return;
    const input = artistSchema.parse({ type: 'artist', artist_id: artistId, artist_name: name });
    this.putArtist(input, 1, hashOf(JSON.stringify(input)));
  }

  private ensureAlbum(track: AlbumSource): AlbumRecord | undefined {
    if (!track.album_id) return undefined;
    if (this.lastAlbum?.album_id === track.album_id) return this.lastAlbum;
    const existing = this.c.albums.get(track.album_id);
    if (existing) return (this.lastAlbum = existing);
    const input = albumSchema.parse({
        type: 'album',
        album_id: track.album_id,
        album_name: track.album_name || track.track_name,
        artist_id: track.artist_id,
        artist_name: track.artist_name,
        album_release_date: track.first_release_date,
        album_coverart_100x100: track.album_coverart_100x100,
        album_coverart_350x350: track.album_coverart_350x350,
        album_coverart_500x500: track.album_coverart_500x500,
        album_coverart_800x800: track.album_coverart_800x800,
    });
    this.putAlbum(input, 1, hashOf(JSON.stringify(input)));
    return (this.lastAlbum = this.c.albums.get(track.album_id));
  }

  private putTrack(input: TrackInput, hash: string, synced?: SyncedForms): Outcome {
    const old = this.c.tracks.get(input.track_id);
    if (old && old.hash === hash) return 'unchanged';
    this.ensureArtist(input.artist_id, input.artist_name);
    const record = trackRecord(input, this.ensureAlbum(input), hash, this.time);
    this.writeTrack(record, old);
    // Subtitle and richsync as timings against the lyrics written with them (synced.ts), when they render back exactly.
    const stored = storedContent(input, record, synced ?? syncedForms(input));
    for (const kind of CONTENT_KINDS) {
      const value = stored[kind];
      if (value) this.putRecord(kind, record.track_id, value);
      else if (old) this.removeContent(kind, record.track_id);
    }
    return this.logTrack(record, old);
  }

  /** A track line whose records the reading thread made (parse-worker.ts): the same writes as putTrack's, its content put as the bytes it came as. */
  private putEncodedTrack({ track, content, hash }: EncodedTrack): Outcome {
    const old = this.c.tracks.get(track.track_id);
    if (old && old.hash === hash) return 'unchanged';
    this.ensureArtist(track.artist_id, track.artist_name);
    const record = withAlbum(track, this.ensureAlbum(track));
    this.writeTrack(record, old);
    for (const kind of CONTENT_KINDS) {
      const bytes = content[kind];
      if (bytes) this.appender.put(this.c.encodedWrites(kind), record.track_id, bytes);
      else if (old) this.removeContent(kind, record.track_id);
    }
    return this.logTrack(record, old);
  }

  /** A track's record and index entries (`old`: the record it replaces), its commontrack group's ISRCs made right. */
  private writeTrack(record: TrackRecord, old: TrackRecord | undefined): void {
    if (old) this.unindexTrack(old);
    const knownAlone = this.indexTrack(record);
    this.putRecord('tracks', record.track_id, record);
    this.c.noteGenres(record.primary_genres.music_genre_list);
    if (old && old.commontrack_id !== record.commontrack_id) this.refreshCommontrack(old.commontrack_id);
    if (!knownAlone) this.refreshCommontrack(record.commontrack_id, record.track_id);
  }

  private removeContent(kind: ContentKind, trackId: number): void {
    (this.c.content[kind] as Database<object, number>).removeSync(trackId);
  }

  private logTrack(record: TrackRecord, old: TrackRecord | undefined): Outcome {
    this.log('put', 'track', record.track_id);
    return old ? 'updated' : 'imported';
  }

  /**
   * After a track of a commontrack group changed, give every track of the group the group's ISRCs.
   * A track alone in its group already holds its own (derive.ts), so the common case writes nothing;
   * when that track is `written` (just derived), nothing is read either.
   */
  private refreshCommontrack(commontrackId: number, written?: number): void {
    const ids = this.c.idsOf('commontrack', commontrackId);
    if (written !== undefined && ids.length === 1 && ids[0] === written) return;
    const group = ids.map((id) => this.c.tracks.get(id)).filter((t): t is TrackRecord => !!t);
    const isrcs = [...new Set(group.map((t) => t.track_isrc).filter(Boolean))];
    const writes = this.c.recordWrites('tracks');
    for (const t of group) {
      if (t.commontrack_isrcs.join() !== isrcs.join()) writes.db.putSync(t.track_id, writes.stored({ ...t, commontrack_isrcs: isrcs }));
    }
  }

  /**
   * Writes a track's index entries; true when the track is known to be alone in its commontrack
   * group (false: not known). It is known without reading when its entry opens a group at the end
   * of the index (a new recording, imported in id order): its ISRCs are then the group's, and
   * refreshCommontrack has nothing to do.
   */
  private indexTrack(t: TrackRecord): boolean {
    const ix = this.c.index;
    if (t.track_isrc) ix.isrc.putSync([t.track_isrc, t.track_id], '');
    if (t.track_spotify_id) ix.spotify.putSync([t.track_spotify_id, t.track_id], '');
    if (t.track_itunes_id) ix.itunes.putSync([t.track_itunes_id, t.track_id], '');
    const knownAlone = this.appender.opensGroup(ix.commontrack, [t.commontrack_id, t.track_id]);
    this.appender.put(ix.commontrack, [t.commontrack_id, t.track_id], '');
    if (t.album_id) this.appender.put(ix.album_tracks, [t.album_id, t.track_id], '');
    this.appender.put(ix.artist_tracks, [t.artist_id, t.track_id], '');
    ix.chart_tracks.putSync([t.track_rating, t.num_favourite, t.track_id], '');
    return knownAlone;
  }

  private unindexTrack(t: TrackRecord): void {
    const ix = this.c.index;
    if (t.track_isrc) ix.isrc.removeSync([t.track_isrc, t.track_id]);
    if (t.track_spotify_id) ix.spotify.removeSync([t.track_spotify_id, t.track_id]);
    if (t.track_itunes_id) ix.itunes.removeSync([t.track_itunes_id, t.track_id]);
    ix.commontrack.removeSync([t.commontrack_id, t.track_id]);
    if (t.album_id) ix.album_tracks.removeSync([t.album_id, t.track_id]);
    ix.artist_tracks.removeSync([t.artist_id, t.track_id]);
    ix.chart_tracks.removeSync([t.track_rating, t.num_favourite, t.track_id]);
  }

  private deleteTrack(id: number): Outcome {
    const old = this.c.tracks.get(id);
    if (!old) return 'absent';
    this.unindexTrack(old);
    this.c.tracks.removeSync(id);
    this.refreshCommontrack(old.commontrack_id);
    for (const db of Object.values(this.c.content)) db.removeSync(id);
    this.log('del', 'track', id);
    return 'deleted';
  }

  /** Deleting an album deletes its tracks: a track never points at a missing album. */
  private deleteAlbum(id: number): Outcome {
    const old = this.c.albums.get(id);
    if (!old) return 'absent';
    this.lastAlbum = undefined;
    for (const trackId of this.c.idsOf('album_tracks', id)) this.deleteTrack(trackId);
    this.c.index.artist_albums.removeSync([old.artist_id, id]);
    this.c.albums.removeSync(id);
    this.log('del', 'album', id);
    return 'deleted';
  }

  /** Deleting an artist deletes its albums and tracks. */
  private deleteArtist(id: number): Outcome {
    const old = this.c.artists.get(id);
    if (!old) return 'absent';
    for (const albumId of this.c.idsOf('artist_albums', id)) this.deleteAlbum(albumId);
    for (const trackId of this.c.idsOf('artist_tracks', id)) this.deleteTrack(trackId);
    this.c.index.chart_artists.removeSync([old.artist_rating, id]);
    this.c.indexArtistGenres(undefined, old);
    this.c.artists.removeSync(id);
    this.log('del', 'artist', id);
    return 'deleted';
  }
}
