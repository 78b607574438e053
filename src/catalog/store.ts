/**
 * The catalog store: one LMDB environment (memory-mapped, many readers, one writer at a time across
 * processes) with a named sub-database per record kind, the secondary indexes, and the change log.
 *
 * Layout (all under `<data>/catalog/`):
 *   tracks, artists, albums                    uint32 id → record (msgpackr shared structures)
 *   lyrics, subtitles, richsync, snippets,
 *   analysis, translations                     uint32 track_id → content record
 *   idx:isrc, idx:spotify, idx:itunes          [code, track_id] → ''
 *   idx:commontrack                            [commontrack_id, track_id] → ''
 *   idx:artist_albums                          [artist_id, album_id] → ''
 *   idx:album_tracks, idx:artist_tracks        [album_id|artist_id, track_id] → ''
 *   idx:chart_tracks                           [track_rating, num_favourite, track_id] → ''
 *   idx:chart_artists                          [artist_rating, artist_id] → ''
 *   changes                                    seq → Change  (the feeds read it, issue #5)
 *   meta                                       string → value
 */
import { open, type Database, type Key, type RootDatabase, type RootDatabaseOptionsWithPath } from 'lmdb';
import path from 'node:path';
import { RefrainError } from '../errors.js';
import { trainDictionary } from './dictionary.js';
import { dictionaryCompressor, type DictionaryCompressor } from '../util/lz4.js';
import { decodeSynced, richsyncJsonString } from './synced.js';
import {
  byPopularity,
  type AlbumRecord, type AnalysisRecord, type ArtistRecord, type Change, type LyricsRecord, type RichsyncRecord, type SnippetRecord,
  type SubtitleRecord, type TrackRecord, type TranslationsRecord,
} from './records.js';

/**
 * Version of the stored record layout a new catalog is written with. A data directory written with a
 * layout this version cannot read is refused at open (with a hint to re-import) rather than served
 * with missing fields. 3: each record database compressed against a dictionary of its own, trained
 * from the first records written to it (RECORD_DATABASES); 2: the record databases' shared
 * structures at key 0 (CATALOG_STRUCTURES_KEY); 1: at STRUCTURES_KEY. Formats 1 and 2 are still read
 * and written as they are; an older Refrain refuses a newer format instead of misreading its records.
 */
export const CATALOG_FORMAT = 3;
const READABLE_FORMATS: readonly unknown[] = [1, 2, 3];
const FORMAT_KEY = 'catalog:format';
/** Set once the genres database holds every genre of the stored records (catalogs written before it had none). */
const GENRES_KEY = 'catalog:genres:2';

type GenreList = { music_genre_list: readonly { music_genre: { music_genre_id: number } }[] };

/** A music genre as records carry it in `primary_genres` (music.genres.get lists them). */
export interface GenreRecord {
  music_genre_id: number;
  music_genre_parent_id: number;
  music_genre_name: string;
  music_genre_name_extended: string;
  music_genre_vanity: string;
}

/**
 * Reserved key of a record database's msgpackr shared structures (ids stop one below it): the
 * works and contributions databases, and the catalog's record databases in format-1 catalogs.
 */
export const STRUCTURES_KEY = 0xffff_ffff;
/**
 * Where a format-2 catalog keeps its record databases' shared structures: below every id, so the
 * last key of a database is its highest id and an import in id order can append (append.ts).
 */
const CATALOG_STRUCTURES_KEY = 0;
export const MAX_ID = 0xffff_fffe;
/**
 * Every record id of a record database, for getRange / getKeys (the shared structures left out,
 * wherever the catalog keeps them: 0 or STRUCTURES_KEY).
 * A new object each time: lmdb-js keeps iteration state on the options it is given.
 */
export const everyId = (): { start: number; end: number } => ({ start: 1, end: STRUCTURES_KEY });

export const CONTENT_KINDS = ['lyrics', 'subtitles', 'richsync', 'snippets', 'analysis', 'translations'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** The databases of records, each with its own compression dictionary in a format-3 catalog. */
const RECORD_DATABASES = ['tracks', 'artists', 'albums', ...CONTENT_KINDS] as const;
export type RecordDatabase = (typeof RECORD_DATABASES)[number];

/** How a write transaction writes one record database's records (Catalog.recordWrites). */
export interface RecordWrites {
  /** The handle a put goes to. */
  readonly db: Database<unknown, number>;
  /** What that put is given for a record: the record itself, or the bytes the database stores for it. */
  stored(record: object): unknown;
}
/**
 * msgpackr's flag for an encode whose buffer space is reused by the next one (the bytes are used at
 * once): lmdb-js passes its own msgpackr copy the same number for its synchronous puts (its write.js).
 */
const RESET_BUFFER_MODE = 1024;
/** Where a record database's dictionary is kept, in `meta`. */
const dictionaryKey = (name: RecordDatabase): string => `catalog:dictionary:${name}`;
/**
 * Bytes of a database's trained dictionary. LMDB's LZ4 loads the dictionary before compressing each
 * value, a cost that grows with its size (about 2 µs per KB on the reference machine): 8 KB for long
 * texts, which it shrinks most, 4 KB for short records, which gain little past it (measured per kind
 * on the 1M catalog: docs/architecture.md, "Catalog store").
 */
const DICTIONARY_BYTES: Record<RecordDatabase, number> = {
  lyrics: 8192, analysis: 8192, richsync: 8192, translations: 8192,
  tracks: 4096, artists: 4096, albums: 4096, snippets: 4096, subtitles: 4096,
};
/** Values from this size on are compressed against the dictionary (a snippet of 89 bytes becomes about 55). */
const DICTIONARY_THRESHOLD = 40;

export const INDEXES = [
  'isrc', 'spotify', 'itunes', 'commontrack', 'artist_albums', 'album_tracks', 'artist_tracks', 'chart_tracks', 'chart_artists',
  // [music_genre_id, artist_rating, artist_id]: an artist under each of its primary and secondary genres.
  'genre_artists',
] as const;
export type IndexName = (typeof INDEXES)[number];

export interface ContentRecords {
  lyrics: LyricsRecord;
  subtitles: SubtitleRecord;
  richsync: RichsyncRecord;
  snippets: SnippetRecord;
  analysis: AnalysisRecord;
  translations: TranslationsRecord;
}

/**
 * A record as its database holds it: a subtitle's or richsync's body may be the compact form of
 * synced.ts (bytes, rendered against the track's lyrics on read) instead of its text.
 */
export type StoredContent<K extends ContentKind> = K extends 'subtitles'
  ? Omit<SubtitleRecord, 'subtitle_body'> & { subtitle_body: string | Uint8Array }
  : K extends 'richsync'
    ? Omit<RichsyncRecord, 'richsync_body'> & { richsync_body: string | Uint8Array }
    : ContentRecords[K];

/** The field of a kind whose text may be stored in synced.ts's compact form. */
const SYNCED_BODY: Partial<Record<ContentKind, string>> = { subtitles: 'subtitle_body', richsync: 'richsync_body' };

export class Catalog {
  readonly root: RootDatabase;
  /** A record database by kind (getters: in a format-3 catalog its handle changes once, when its dictionary is set). */
  readonly content: { readonly [K in ContentKind]: Database<StoredContent<K>, number> };
  readonly index: Record<IndexName, Database<'', Key>>;
  readonly changes: Database<Change, number>;
  readonly meta: Database<unknown, string>;
  /** Record databases opened with their final compression: all of them before format 3, then each once its dictionary exists. */
  private readonly sealed: Partial<Record<RecordDatabase, Database<unknown, number>>> = {};
  /** Format 3: record databases without a dictionary yet, opened uncompressed (they hold nothing, or this transaction's first records). */
  private readonly unsealed: Partial<Record<RecordDatabase, Database<unknown, number>>> = {};
  /** Databases sealed by the write transaction under way: unsealed again if it does not commit. */
  private readonly sealedNow = new Set<RecordDatabase>();
  /** Format 3: each record database opened raw (binary values, no compression), for recordWrites. */
  private readonly raw: Partial<Record<RecordDatabase, Database<unknown, number>>> = {};
  /** recordWrites of each record database handle (a database's handle changes when it is sealed). */
  private readonly writes = new WeakMap<Database<unknown, number>, RecordWrites>();

  private constructor(
    /** The data directory the catalog was opened from (its LMDB environment is `<dataDir>/catalog`). */
    readonly dataDir: string,
    root: RootDatabase,
    /** The key of the record databases' shared structures (CATALOG_STRUCTURES_KEY, or STRUCTURES_KEY in older catalogs). */
    private readonly structuresKey: number,
    /** Whether each record database has a dictionary of its own (format 3). */
    private readonly dictionaries: boolean,
  ) {
    this.root = root;
    for (const name of RECORD_DATABASES) {
      if (!dictionaries) this.sealed[name] = this.openRecords(name, undefined);
      // Opened (created if new) outside any transaction, so that a write transaction can open the
      // database again with its dictionary.
      else this.unsealed[name] = this.openRecords(name, false);
    }
    const content = {} as Record<ContentKind, Database<unknown, number>>;
    for (const kind of CONTENT_KINDS) Object.defineProperty(content, kind, { get: () => this.records(kind), enumerable: true });
    this.content = content as unknown as Catalog['content'];
    this.index = Object.fromEntries(
      INDEXES.map((name) => [name, root.openDB<'', Key>({ name: `idx:${name}`, encoding: 'binary' })]),
    ) as Record<IndexName, Database<'', Key>>;
    this.changes = root.openDB<Change, number>({ name: 'changes' });
    this.meta = root.openDB<unknown, string>({ name: 'meta' });
    this.genreDb = root.openDB<GenreRecord, number>({ name: 'genres', keyEncoding: 'uint32' });
    if (dictionaries) for (const name of RECORD_DATABASES) this.records(name);
  }

  get tracks(): Database<TrackRecord, number> {
    return this.records('tracks') as Database<TrackRecord, number>;
  }

  get artists(): Database<ArtistRecord, number> {
    return this.records('artists') as Database<ArtistRecord, number>;
  }

  get albums(): Database<AlbumRecord, number> {
    return this.records('albums') as Database<AlbumRecord, number>;
  }

  /**
   * A record database. In a format-3 catalog, until its dictionary exists (another process may
   * write it at any time) the database holds no records: the dictionary is written in the
   * transaction of its first records (sealDictionaries), so a read that finds none in `meta` reads
   * the database as it is in the same snapshot, empty, through the uncompressed handle.
   */
  private records(name: RecordDatabase): Database<unknown, number> {
    const sealed = this.sealed[name];
    if (sealed) return sealed;
    const dictionary = this.meta.get(dictionaryKey(name)) as Uint8Array | undefined;
    if (!dictionary) return this.unsealed[name]!;
    return (this.sealed[name] = this.openRecords(name, Buffer.from(dictionary)));
  }

  /**
   * How a write transaction writes records of `name`. A database with a dictionary is written through
   * a raw handle of the same database, each record encoded with the database's own encoder (its
   * shared structures) and compressed here by util/lz4.ts into the form lmdb-js stores and
   * decompresses on read. lmdb-js's own compression loads the dictionary again before every value:
   * 10–30 µs a value against 3–10 µs here, most of an import's writing time (docs/benchmarks.md,
   * "Import: where the time goes"). Other databases are written with records as they are.
   */
  recordWrites(name: RecordDatabase): RecordWrites {
    const db = this.records(name);
    let writes = this.writes.get(db);
    if (!writes) this.writes.set(db, (writes = this.writesOf(name, db)));
    return writes;
  }

  private writesOf(name: RecordDatabase, db: Database<unknown, number>): RecordWrites {
    const dictionary = this.dictionaries && db !== this.unsealed[name] ? (this.meta.get(dictionaryKey(name)) as Uint8Array | undefined) : undefined;
    if (!dictionary) return { db, stored: (record) => record };
    const compress = storedBytes(dictionaryCompressor(dictionary));
    const encoder = encoderOf(db);
    return {
      db: this.rawRecords(name),
      stored: (record) => compress(encoder.encode(record, RESET_BUFFER_MODE)),
    };
  }

  /** A record database opened raw (binary values, no compression): puts of the bytes recordWrites and contentEncoders make. */
  private rawRecords(name: RecordDatabase): Database<unknown, number> {
    return (this.raw[name] ??= this.openRecords(name, false, 'binary'));
  }

  /**
   * Encoders of content records into the bytes their databases store, for the import's reading
   * threads (parse-worker.ts), so that the writing thread only puts them (import.ts): one for each
   * content database that has its dictionary (none before format 3; a database gets its dictionary
   * with its first records). An encoder of `previous` whose database's shared structures have not
   * changed since is kept.
   *
   * Each encodes with its database's msgpackr shared structures as stored when it was made, and
   * never shares one itself: a record of a shape they lack is not encoded (the writer encodes it,
   * sharing the shape, as it would have anyway). So every record it encodes is the bytes the
   * writer's own encoder makes for it, and which records share which structure does not depend on
   * the threads' timing. (When a database's 32 shared structures are all taken, a new shape is
   * written inline by either: the same record, perhaps with another inline id; it decodes the same.)
   */
  contentEncoders(previous: ContentEncoders = {}): ContentEncoders {
    const encoders: ContentEncoders = {};
    if (!this.dictionaries) return encoders;
    for (const kind of CONTENT_KINDS) {
      const dictionary = this.meta.get(dictionaryKey(kind)) as Uint8Array | undefined;
      if (!dictionary) continue;
      const db = this.records(kind);
      const saved = db.getBinary(this.structuresKey);
      const kept = previous[kind];
      if (kept && (kept.structures === saved || (kept.structures && saved && Buffer.from(kept.structures).equals(saved)))) {
        encoders[kind] = kept;
        continue;
      }
      const own = encoderOf(db);
      const structures = (saved ? own.decode(saved) : []) as string[][];
      let shares = false;
      // The same msgpackr as lmdb-js's (its own copy, whose version decides the bytes), set up as it sets it up.
      const packr = new own.constructor({
        getStructures: () => structures.map((keys) => keys.slice()),
        saveStructures: () => {
          throw new Error(`an encoder of ${kind} records for the import's reading thread tried to share a structure`);
        },
        // Asked when a record has a shape not yet shared while there is room to share it.
        shouldShareStructure: () => {
          shares = true;
          return false;
        },
        copyBuffers: true,
      });
      const compress = storedBytes(dictionaryCompressor(dictionary));
      encoders[kind] = {
        structures: saved && new Uint8Array(saved),
        encode: (record) => {
          shares = false;
          const bytes = packr.encode(record, RESET_BUFFER_MODE);
          // A copy: the packr's and the compressor's buffers are reused by the next record.
          return shares ? undefined : compress(bytes).slice();
        },
      };
    }
    return encoders;
  }

  /**
   * Where a write transaction puts a content record as the bytes one of contentEncoders made: the
   * database opened raw. It had its dictionary when they were made, and a database never loses it.
   */
  encodedWrites(kind: ContentKind): Database<unknown, number> {
    if (this.records(kind) === this.unsealed[kind]) throw new Error(`${kind} records came encoded for a database without its dictionary`);
    return this.rawRecords(kind);
  }

  /** A record database's handle: with the environment's compression (undefined), none (false), or a dictionary of its own. */
  private openRecords(name: RecordDatabase, dictionary: Buffer | false | undefined, encoding?: 'binary'): Database<unknown, number> {
    const compression = dictionary ? { dictionary, threshold: DICTIONARY_THRESHOLD } : dictionary;
    return this.root.openDB<unknown, number>({
      name, keyEncoding: 'uint32', sharedStructuresKey: encoding ? undefined : this.structuresKey, encoding, compression,
    } as RootDatabaseOptionsWithPath & { name: string });
  }

  /**
   * Inside a write transaction, after its writes: each record database of a format-3 catalog that
   * received its first records gets its dictionary, trained from them (their stored bytes, as this
   * transaction wrote them uncompressed), and they are written again compressed against it.
   */
  sealDictionaries(): void {
    if (!this.dictionaries) return;
    for (const name of RECORD_DATABASES) {
      const unsealed = this.unsealed[name]!;
      if (this.records(name) !== unsealed || (unsealed.getStats() as { entryCount: number }).entryCount === 0) continue;
      const plain = this.openRecords(name, false, 'binary');
      const stored = [...plain.getRange()].map(({ key, value }) => ({ key, value: Buffer.from(value as Uint8Array) }));
      const samples = stored.filter((e) => e.key !== this.structuresKey).map((e) => e.value);
      const bytes = samples.reduce((n, v) => n + v.length, 0);
      const dictionary = trainDictionary(samples, Math.min(DICTIONARY_BYTES[name], bytes / 4));
      this.meta.putSync(dictionaryKey(name), dictionary);
      // Removed and appended again in key order (LMDB would keep the pages the larger values filled).
      for (const { key } of stored) plain.removeSync(key);
      const compressed = this.openRecords(name, dictionary, 'binary');
      for (const { key, value } of stored) {
        if (!(compressed.putSync(key, value, { append: true }) as unknown as boolean)) throw new Error(`could not write ${name} ${key} again with its dictionary`);
      }
      this.records(name);
      this.sealedNow.add(name);
    }
  }

  /**
   * A write transaction that may write records (every write of records goes through one). If it
   * does not commit, what this process learned inside it is forgotten with it: the dictionaries it
   * set (no value is ever compressed against a dictionary the catalog does not hold), and msgpackr's
   * shared structures, which it may have added in memory (a record encoded with one the catalog does
   * not hold would not decode elsewhere); they are read again from the catalog when next needed.
   */
  writeTransaction<T>(write: () => T): T {
    try {
      return this.root.transactionSync(write);
    } catch (e) {
      // Assigned, not deleted: `sealed` is read on every record lookup, and a delete would turn it
      // into a slower dictionary-mode object for the rest of the process.
      for (const name of this.sealedNow) this.sealed[name] = undefined;
      for (const name of RECORD_DATABASES) for (const db of [this.sealed[name], this.unsealed[name]]) if (db) forgetStructures(db);
      throw e;
    } finally {
      this.sealedNow.clear();
    }
  }

  /** Every genre any track, album or artist has named, by id; the last definition written wins. */
  private readonly genreDb: Database<GenreRecord, number>;

  /** Inside a write transaction: remember the genres a record names (a few per record, most already known). */
  noteGenres(list: readonly { music_genre: GenreRecord }[]): void {
    for (const { music_genre: g } of list) {
      const known = this.genreDb.get(g.music_genre_id);
      if (!known || known.music_genre_name !== g.music_genre_name || known.music_genre_parent_id !== g.music_genre_parent_id ||
        known.music_genre_name_extended !== g.music_genre_name_extended || known.music_genre_vanity !== g.music_genre_vanity) {
        this.genreDb.putSync(g.music_genre_id, { ...g });
      }
    }
  }

  /** Every genre of the catalog, by id. */
  genres(): GenreRecord[] {
    return [...this.genreDb.getRange()].map((e) => e.value);
  }

  /** Genre ids an artist is listed under in `genre_artists`: its primary and secondary genres. */
  static artistGenres(artist: { primary_genres: GenreList; secondary_genres: GenreList }): number[] {
    const ids = [...artist.primary_genres.music_genre_list, ...artist.secondary_genres.music_genre_list].map((g) => g.music_genre.music_genre_id);
    return [...new Set(ids)];
  }

  /** Inside a write transaction: list an artist under its genres (`old`: the record it replaces). */
  indexArtistGenres(artist: ArtistRecord | undefined, old: ArtistRecord | undefined): void {
    const ix = this.index.genre_artists;
    if (old) for (const g of Catalog.artistGenres(old)) ix.removeSync([g, old.artist_rating, old.artist_id]);
    if (artist) for (const g of Catalog.artistGenres(artist)) ix.putSync([g, artist.artist_rating, artist.artist_id], '');
  }

  /** The most popular artists listed under a genre, best first, with their artist_rating. */
  artistsOfGenre(genreId: number, limit: number): { id: number; rating: number }[] {
    const out: { id: number; rating: number }[] = [];
    for (const k of this.index.genre_artists.getKeys({ start: [genreId, 101], end: [genreId, -1], reverse: true, limit })) {
      const [, rating, id] = k as number[];
      out.push({ id, rating });
    }
    return out;
  }

  /** A catalog written before the genres database and the genre_artists index: gather them from its records, once. */
  private backfillGenres(): void {
    if (this.meta.get(GENRES_KEY)) return;
    this.root.transactionSync(() => {
      if (this.meta.get(GENRES_KEY)) return; // another process or thread did it while this one waited for the lock
      for (const db of [this.tracks, this.albums, this.artists] as Database<{ primary_genres?: { music_genre_list: { music_genre: GenreRecord }[] } }, number>[]) {
        for (const { value } of db.getRange(everyId())) if (value.primary_genres) this.noteGenres(value.primary_genres.music_genre_list);
      }
      for (const { value } of this.artists.getRange(everyId())) this.indexArtistGenres(value, value);
      this.meta.putSync(GENRES_KEY, 1);
    });
  }

  /** Open (creating if needed) the catalog of a data directory; refuses another record layout. */
  static open(dataDir: string, { randomReads = false }: { randomReads?: boolean } = {}): Catalog {
    const root = open({
      path: path.join(dataDir, 'catalog'),
      // A server reads records at random: with the kernel's readahead each page it faults in brought
      // its neighbours too, and once the data directory outgrew the page cache that was ~1 ms of
      // kernel time per track.get and a disk busy with pages nobody asked for (bench/scale at 5M).
      // Imports and index builds read in key order and keep it. Process-wide: LMDB shares one
      // environment between a process's threads, so the first to open it decides.
      noReadAhead: randomReads,
      // Record kinds, secondary indexes, keys, usage, OAuth, works and feeds: room to grow.
      maxDbs: 64,
      // Grows as needed; a large initial map avoids remaps while a big import runs.
      mapSize: 2 ** 34,
      // LZ4 for values over 1 KB (lyrics, subtitles, richsync, analysis; track records stay raw):
      // halves the data directory (1.1 → 0.59 GB for 100k tracks) for ~20% slower imports and no
      // measurable cost on an uncached track.lyrics.get (bench/http; docs/architecture.md; what each kind
      // stores per track: bench/footprint).
      compression: true,
    } as RootDatabaseOptionsWithPath); // lmdb-js's types leave out noReadAhead
    // The format says where the record databases keep their shared structures, so it is read
    // before they are opened. A catalog being created (no format yet) is written as CATALOG_FORMAT.
    const format = root.openDB<unknown, string>({ name: 'meta' }).get(FORMAT_KEY);
    const catalog = new Catalog(dataDir, root, format === 1 ? STRUCTURES_KEY : CATALOG_STRUCTURES_KEY, format === undefined || format === 3);
    if (READABLE_FORMATS.includes(format)) catalog.backfillGenres();
    if (format === undefined && catalog.trackCount() === 0 && catalog.artists.getKeysCount(everyId()) === 0) {
      catalog.root.transactionSync(() => {
        // Another process may have created it since it was read: it wrote the same.
        if (catalog.meta.get(FORMAT_KEY) !== undefined) return;
        catalog.meta.putSync(FORMAT_KEY, CATALOG_FORMAT);
        catalog.meta.putSync(GENRES_KEY, 1);
      });
    } else if (!READABLE_FORMATS.includes(format)) {
      void root.close();
      throw new RefrainError(
        'bad_request',
        `the catalog in ${dataDir} was written by another version of Refrain (format ${String(format ?? 0)}, this one reads ${READABLE_FORMATS.slice(0, -1).join(', ')} and ${String(READABLE_FORMATS.at(-1))}): ` +
          'move it aside and import the catalog again',
      );
    }
    return catalog;
  }

  close(): Promise<void> {
    return this.root.close();
  }

  /** Drop the read snapshot so the next read sees the latest commit (another process may write). */
  refresh(): void {
    this.root.resetReadTxn();
  }

  getTrack(id: number): TrackRecord | undefined {
    return validId(id) ? this.tracks.get(id) : undefined;
  }

  getArtist(id: number): ArtistRecord | undefined {
    return validId(id) ? this.artists.get(id) : undefined;
  }

  getAlbum(id: number): AlbumRecord | undefined {
    return validId(id) ? this.albums.get(id) : undefined;
  }

  getContent<K extends ContentKind>(kind: K, trackId: number): ContentRecords[K] | undefined {
    if (!validId(trackId)) return undefined;
    const stored = this.content[kind].get(trackId) as Record<string, unknown> | undefined;
    const field = SYNCED_BODY[kind];
    const form = field === undefined ? undefined : stored?.[field];
    if (field !== undefined && form instanceof Uint8Array) return { ...stored, [field]: this.fromForm(form, trackId, decodeSynced)() } as ContentRecords[K];
    return stored as ContentRecords[K] | undefined;
  }

  /**
   * A track's richsync with its body as a JSON string's UTF-8 bytes (quotes included), for an
   * answer that splices it in: written straight from the stored form, without the text between.
   * The body is written only when `json` is called (a restricted richsync is answered without it).
   */
  getRichsyncJson(trackId: number): { record: Omit<RichsyncRecord, 'richsync_body'>; json: () => Buffer } | undefined {
    if (!validId(trackId)) return undefined;
    const stored = this.content.richsync.get(trackId);
    if (!stored) return undefined;
    const { richsync_body: body, ...record } = stored;
    if (typeof body === 'string') return { record, json: () => Buffer.from(JSON.stringify(body)) };
    return { record, json: this.fromForm(body, trackId, richsyncJsonString) };
  }

  /**
   * A synced body's rendering from its stored form against the track's lyrics, made when called. The
   * form's bytes may be a view LMDB reuses for its next read, so they are copied now.
   */
  private fromForm<T>(form: Uint8Array, trackId: number, render: (form: Uint8Array, lyrics: string) => T): () => T {
    const bytes = new Uint8Array(form);
    return () => render(bytes, this.content.lyrics.get(trackId)?.lyrics_body ?? '');
  }

  /** Ids stored under one key of a composite index, in id order. */
  idsOf(index: IndexName, key: string | number, limit?: number): number[] {
    const ids: number[] = [];
    for (const k of this.index[index].getKeys({ start: [key], end: [key, MAX_ID + 1], limit })) {
      ids.push((k as [unknown, number])[1]);
    }
    return ids;
  }

  /**
   * The tracks under one key of a track index (an ISRC, a commontrack, an artist's tracks), most
   * popular first; `limit` caps the ids read, in id order, before they are ranked.
   */
  tracksOf(index: IndexName, key: string | number, limit?: number): TrackRecord[] {
    const tracks: TrackRecord[] = [];
    for (const id of this.idsOf(index, key, limit)) {
      const t = this.getTrack(id);
      if (t) tracks.push(t);
    }
    return tracks.sort(byPopularity);
  }

  /** Count of ids under one key of a composite index. */
  countOf(index: IndexName, key: string | number): number {
    return this.index[index].getKeysCount({ start: [key], end: [key, MAX_ID + 1] });
  }

  /** Track ids from the most to the least popular (track_rating, then num_favourite). */
  *tracksByPopularity(): Generator<number> {
    for (const k of this.index.chart_tracks.getKeys({ reverse: true })) yield (k as number[])[2];
  }

  /** Artist ids from the highest to the lowest artist_rating. */
  *artistsByPopularity(): Generator<number> {
    for (const k of this.index.chart_artists.getKeys({ reverse: true })) yield (k as number[])[1];
  }

  /**
   * Number of tracks in the catalog, from the database's B-tree statistics (constant time) less the
   * shared-structures record it also holds. Counting the keys instead took 466 ms at 1M tracks (about
   * 5 s at 10M) on the thread that asked: /readyz asked after every catalog change, stalling every
   * request behind it.
   */
  trackCount(): number {
    // lmdb-js types getStats() as {}; it is LMDB's MDB_stat, whose ms_entries it names entryCount.
    const { entryCount } = this.tracks.getStats() as { entryCount: number };
    return entryCount - (this.tracks.doesExist(this.structuresKey) ? 1 : 0);
  }

  /** Sequence number of the latest change (0 for an empty log). */
  lastChange(): number {
    for (const k of this.changes.getKeys({ reverse: true, limit: 1 })) return k as number;
    return 0;
  }

  /** Changes after `seq`, oldest first. */
  changesSince(seq: number, limit?: number): Iterable<{ key: number; value: Change }> {
    return this.changes.getRange({ start: seq + 1, limit }) as Iterable<{ key: number; value: Change }>;
  }

  /** Iterate all track ids in id order (skips the shared-structures key). */
  trackIds(): Iterable<number> {
    return this.tracks.getKeys(everyId()) as Iterable<number>;
  }
}

/** An encoder of one content database's records for the import's reading threads (Catalog.contentEncoders). */
export interface ContentEncoder {
  /** The record's bytes as its database stores them, or undefined when its shape is not yet shared (the writer encodes it). */
  encode(record: object): Uint8Array | undefined;
  /** The database's shared structures it encodes with, as stored (undefined: none yet). */
  readonly structures: Uint8Array | undefined;
}
export type ContentEncoders = Partial<Record<ContentKind, ContentEncoder>>;

/** lmdb-js's msgpackr encoder of a database (its own copy of msgpackr), as this module uses it. */
interface RecordEncoder {
  encode(value: unknown, mode?: number): Uint8Array;
  decode(bytes: Uint8Array): unknown;
  constructor: new (options: object) => RecordEncoder;
}
const encoderOf = (db: Database<unknown, number>): RecordEncoder => (db as unknown as { encoder: RecordEncoder }).encoder;

/**
 * A record's encoded bytes as a record database with a dictionary stores them: as lmdb-js decides,
 * short values stay raw, unless their first byte would read as a compression header; the rest are
 * compressed against the dictionary.
 */
function storedBytes(compressor: DictionaryCompressor): (bytes: Uint8Array) => Uint8Array {
  return (bytes) => (bytes.length < DICTIONARY_THRESHOLD && !(bytes.length > 0 && bytes[0] >= 250) ? bytes : compressor.compress(bytes));
}

/** Marks a record database's msgpackr structures unread (msgpackr's own convention), so the next encode or decode reads them from the database. */
function forgetStructures(db: Database<unknown, number>): void {
  const encoder = (db as unknown as { encoder?: { structures?: unknown[] } }).encoder;
  if (!encoder?.structures) return;
  const unread: unknown[] & { uninitialized?: boolean } = [];
  unread.uninitialized = true;
  encoder.structures = unread;
}

function validId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_ID;
}
