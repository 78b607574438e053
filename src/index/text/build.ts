/**
 * Build side of the text index behind track.search, artist.search and the matchers: word postings
 * per field over tracks, title trigrams, precise title+artist keys, per-track columns for filters
 * and sorts, and name postings over artists (docs/index.md).
 */
import { everyId, type Catalog } from '../../catalog/store.js';
import type { ArtistRecord, LyricsRecord, TrackRecord } from '../../catalog/records.js';
import { DictionaryBuilder } from './dictionary.js';
import { PostingsBuilder, U32List } from '../store/postings.js';
import { writeSegment, type SegmentEntry } from '../store/layout.js';
import { kernel } from '../kernel/kernel.js';
import { artistCore, titleCore, trigramsOf } from './names.js';
import { FIELD, FLAG, packDate, packLanguage, pairKey } from './terms.js';
import { WorkStore } from '../../works/store.js';
import { writerNames } from '../../works/credits.js';

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
    // A song repeats its words (choruses): each distinct one costs one probe of the big dictionary.
    if (lyrics && lyrics.lyrics_body) add(FIELD.lyrics, new Set(kernel.wordsOf(kernel.normalizeText(lyrics.lyrics_body))));
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
 * The distinct term ids of one document, collected in a scratch array, then sorted and deduplicated
 * in place (a Set of numbers and Uint32Array.from over it cost twice as much). sorted() hands back a
 * view of the scratch array, valid until the next document starts.
 */
export class DocumentTerms {
  private ids = new Uint32Array(1 << 10);
  private size = 0;

  start(): this {
    this.size = 0;
    return this;
  }

  add(id: number): void {
    if (this.size === this.ids.length) {
      const grown = new Uint32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
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
