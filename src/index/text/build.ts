/**
 * Build side of the text index behind track.search, artist.search and the matchers: word postings
 * per field over tracks, title trigrams, precise title+artist keys, per-track columns for filters
 * and sorts, and name postings over artists (docs/index.md).
 */
import { everyId, type Catalog } from '../../catalog/store.js';
import type { ArtistRecord, LyricsRecord, TrackRecord } from '../../catalog/records.js';
import { DictionaryBuilder, type FieldHasher } from './dictionary.js';
import { PostingsBuilder, U32List } from '../store/postings.js';
import { writeSegment, type SegmentEntry } from '../store/layout.js';
import { kernel } from '../kernel/kernel.js';
import { artistCore, titleCore, trigramsOf } from './names.js';
import { FIELD, FLAG, packDate, packLanguage, pairKey } from './terms.js';
import { WorkStore } from '../../works/store.js';
import { writerNames } from '../../works/credits.js';
import { grown } from '../../util/grown.js';

interface ArtistTerms {
  rating: number;
  /** Normalised names: the credit itself, then aliases and translations. */
  variants: string[];
  words: string[];
}

const COLUMNS = ['id', 'artist', 'common', 'genre1', 'genre2', 'release', 'favourites'] as const;

export class TextBuilder {
  private readonly dict = new DictionaryBuilder();
  /** The distinct terms of the document being added. */
  private readonly terms = new DocumentTerms();
  /** The words of the lyric being added, by their hashes. */
  private readonly seenWords = new HashSet();
  /** Hashes lyrics words (made at the first one, so fields keep the order they were first used in). */
  private lyricsHasher: FieldHasher | undefined;
  private readonly trackPostings: PostingsBuilder;
  private readonly artistPostings = new PostingsBuilder();
  private readonly columns = Object.fromEntries(COLUMNS.map((c) => [c, new U32List()])) as Record<(typeof COLUMNS)[number], U32List>;
  private readonly small = { lang: [] as number[], flags: [] as number[], rating: [] as number[], artistRating: [] as number[] };
  private readonly artists = new Map<number, ArtistTerms>();
  private readonly artistIds = new U32List();
  private readonly artistRatings: number[] = [];

  /** Works lend their writers to the tracks of their ISRCs (work.post): read here, never copied into tracks. */
  private readonly works: WorkStore;

  /** `spill`: a file for the track lists' recorded keys (PostingsBuilder), the largest of the build's lists. */
  constructor(
    private readonly catalog: Catalog,
    spill?: string,
  ) {
    this.works = new WorkStore(catalog);
    this.trackPostings = new PostingsBuilder(spill);
  }

  /** Adds a track (in id order) with its lyrics record, if any. */
  addTrack(t: TrackRecord, lyrics: LyricsRecord | undefined): void {
    const terms = this.terms.start();
    const add = (field: string, values: Iterable<string>) => {
      for (const v of values) if (v) terms.add(this.dict.id(field, v));
    };
    const title = kernel.normalizeName(t.track_name);
    const core = titleCore(t.track_name);
    const artist = this.artistTerms(t.artist_id, t.artist_name);
    add(FIELD.title, kernel.wordsOf(title));
    add(FIELD.artist, artist.words);
    if (lyrics && lyrics.lyrics_body) this.addLyricsWords(kernel.normalizeText(lyrics.lyrics_body));
    const linked = this.works.creditsFor(t.track_isrc);
    const writers = linked ? [...writersOf(t, lyrics), ...writerNames(linked)] : writersOf(t, lyrics);
    add(FIELD.writer, writers.flatMap((w) => kernel.wordsOf(kernel.normalizeName(w))));
    add(FIELD.titleGram, trigramsOf(core));
    const lead = artistCore(t.artist_name);
    add(FIELD.precise, [pairKey(core, lead), pairKey(core, artist.variants[0])]);
    add(FIELD.alias, artist.variants.slice(1).map((v) => pairKey(core, v)));
    this.trackPostings.add(terms.sorted());

    const genres = t.primary_genres.music_genre_list;
    this.columns.id.push(t.track_id);
    this.columns.artist.push(t.artist_id);
    this.columns.common.push(t.commontrack_id);
    this.columns.genre1.push(genres[0]?.music_genre.music_genre_id ?? 0);
    this.columns.genre2.push(genres[1]?.music_genre.music_genre_id ?? 0);
    this.columns.release.push(packDate(t.first_release_date));
    this.columns.favourites.push(t.num_favourite);
    this.small.lang.push(packLanguage(lyrics?.lyrics_language ?? ''));
    this.small.flags.push(
      (t.has_lyrics ? FLAG.lyrics : 0) | (t.has_subtitles ? FLAG.subtitles : 0) | (t.has_richsync ? FLAG.richsync : 0) |
        (t.has_lyrics_analysis ? FLAG.analysis : 0) | (t.instrumental ? FLAG.instrumental : 0),
    );
    this.small.rating.push(t.track_rating);
    this.small.artistRating.push(artist.rating);
  }

  /**
   * The lyrics' words, each distinct one once (a song repeats its chorus: each costs a probe of the
   * big dictionary). A text of spaced scripts only is read in place: each word hashed where it stands
   * and told apart from the song's others by its hashes, no word cut out as a string; others go
   * through wordsOf, which cuts unspaced runs into pairs.
   */
  private addLyricsWords(normalized: string): void {
    if (!kernel.spacedWords(normalized)) {
      for (const w of new Set(kernel.wordsOf(normalized))) if (w) this.terms.add(this.dict.id(FIELD.lyrics, w));
      return;
    }
    const seen = this.seenWords.start((normalized.length >> 1) + 1);
    for (let from = 0; from < normalized.length; ) {
      let to = normalized.indexOf(' ', from);
      if (to < 0) to = normalized.length;
      if (to > from) {
        const hasher = (this.lyricsHasher ??= this.dict.field(FIELD.lyrics));
        hasher.hash(normalized, from, to);
        if (seen.first(hasher.h1, hasher.h2)) this.terms.add(this.dict.idOf(hasher));
      }
      from = to + 1;
    }
  }

  /** Adds every artist (after the tracks): name postings for artist.search. */
  addArtists(): void {
    for (const { value: a } of this.catalog.artists.getRange(everyId())) {
      const variants = variantsOf(a.artist_name, a);
      const terms = this.terms.start();
      for (const v of variants) {
        terms.add(this.dict.id(FIELD.artistExact, v));
        for (const w of kernel.wordsOf(v)) terms.add(this.dict.id(FIELD.artistWord, w));
        for (const g of trigramsOf(v)) terms.add(this.dict.id(FIELD.artistGram, g));
      }
      this.artistPostings.add(terms.sorted());
      this.artistIds.push(a.artist_id);
      this.artistRatings.push(a.artist_rating);
    }
  }

  write(dir: string): { segments: Record<string, SegmentEntry>; parts: Record<string, Record<string, number>> } {
    const terms = this.dict.size;
    const tracks = this.trackPostings.write(dir, 'tt', terms);
    const artists = this.artistPostings.write(dir, 'ta', terms, { sparse: true });
    const n = this.trackPostings.docs;
    const cols: Record<string, Uint32Array | Uint16Array | Uint8Array> = {};
    for (const c of COLUMNS) cols[c] = this.columns[c].toArray();
    cols.lang = Uint16Array.from(this.small.lang);
    cols.flags = Uint8Array.from(this.small.flags);
    cols.rating = Uint8Array.from(this.small.rating);
    cols.artistRating = Uint8Array.from(this.small.artistRating);
    const segments: Record<string, SegmentEntry> = {
      ...tracks.segments,
      ...artists.segments,
      'text-dict': this.dict.write(dir, 'text-dict'),
      'text-tracks': writeSegment(dir, 'text-tracks.bin', cols),
      'text-artists': writeSegment(dir, 'text-artists.bin', {
        id: this.artistIds.toArray(),
        rating: Uint8Array.from(this.artistRatings),
      }),
    };
    return {
      segments,
      parts: {
        text: { tracks: n, artists: this.artistPostings.docs, terms, entries: this.trackPostings.entries + this.artistPostings.entries },
        tt: { shards: tracks.shards },
        ta: { shards: artists.shards },
      },
    };
  }

  private artistTerms(artistId: number, credit: string): ArtistTerms {
    const cached = this.artists.get(artistId);
    if (cached && cached.variants[0] === kernel.normalizeName(credit)) return cached;
    const record = this.catalog.getArtist(artistId);
    const variants = variantsOf(credit, record);
    const words = [...new Set(variants.flatMap((v) => kernel.wordsOf(v)))];
    const terms = { rating: record?.artist_rating ?? 0, variants, words };
    this.artists.set(artistId, terms);
    return terms;
  }
}

/** Normalised name variants of an artist: the credit, its lead artist, aliases and translations. */
function variantsOf(credit: string, a: ArtistRecord | undefined): string[] {
  const names = [kernel.normalizeName(credit), artistCore(credit)];
  if (a) {
    names.push(kernel.normalizeName(a.artist_name));
    for (const x of a.artist_alias_list) names.push(kernel.normalizeName(x.artist_alias));
    for (const x of a.artist_name_translation_list) names.push(kernel.normalizeName(x.artist_name_translation.translation));
  }
  return [...new Set(names.filter(Boolean))];
}

const WRITERS_LINE = /^Writer\(s\):\s*(.+)$/im;

/** Writer names from `writer_list` entries (strings or objects naming one) and the copyright line. */
export function writersOf(t: TrackRecord, lyrics: LyricsRecord | undefined): string[] {
  const names: string[] = [];
  for (const w of t.writer_list) {
    if (typeof w === 'string') names.push(w);
    else if (w && typeof w === 'object') {
      const o = w as Record<string, unknown>;
      const inner = (o.writer ?? o) as Record<string, unknown>;
      const name = inner.writer_name ?? inner.name;
      if (typeof name === 'string') names.push(name);
    }
  }
  const line = lyrics ? WRITERS_LINE.exec(lyrics.lyrics_copyright) : null;
  if (line) names.push(...line[1].split(/\s*[,;]\s*|\s+&\s+/));
  return names;
}

/**
 * A set of hash pairs for one document at a time: open addressing over a table at most half full,
 * whose slots count as empty unless stamped with the current document (start() empties it in O(1)).
 */
export class HashSet {
  private keys = new Uint32Array(2 * 1024);
  private stamps = new Uint32Array(1024);
  /** Never 0, the stamp of a slot never used. */
  private stamp = 1;

  /** Empties the set for a document of at most `capacity` members. */
  start(capacity: number): this {
    if (2 * capacity > this.stamps.length) {
      let slots = this.stamps.length;
      while (slots < 2 * capacity) slots *= 2;
      this.keys = new Uint32Array(2 * slots);
      this.stamps = new Uint32Array(slots);
      this.stamp = 1;
    }
    if (++this.stamp === 0xffff_ffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    return this;
  }

  /** Adds (a, b); whether it was not in the set yet. */
  first(a: number, b: number): boolean {
    const mask = this.stamps.length - 1;
    for (let slot = b & mask; ; slot = (slot + 1) & mask) {
      if (this.stamps[slot] !== this.stamp) {
        this.stamps[slot] = this.stamp;
        this.keys[2 * slot] = a;
        this.keys[2 * slot + 1] = b;
        return true;
      }
      if (this.keys[2 * slot] === a && this.keys[2 * slot + 1] === b) return false;
    }
  }
}

/**
 * The distinct term ids of one document, collected in a scratch array, then sorted and deduplicated
 * in place (a Set of numbers and Uint32Array.from over it cost twice as much). sorted() hands back a
 * view of the scratch array, valid until the next document starts.
 */
export class DocumentTerms {
  private ids: Uint32Array<ArrayBuffer> = new Uint32Array(1 << 10);
  private size = 0;

  start(): this {
    this.size = 0;
    return this;
  }

  add(id: number): void {
    if (this.size === this.ids.length) this.ids = grown(this.ids);
    this.ids[this.size++] = id;
  }

  /** The document's terms, ascending, each once. */
  sorted(): Uint32Array {
    const ids = this.ids.subarray(0, this.size).sort();
    let n = 0;
    for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[i - 1]) ids[n++] = ids[i];
    return ids.subarray(0, n);
  }
}
