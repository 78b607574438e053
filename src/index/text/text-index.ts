/**
 * The text index as the searchers read it (docs/index.md): the term dictionary, the posting lists
 * over tracks and over artists, and the per-track and per-artist columns, all views of one loaded
 * generation's shared buffers.
 */
import { column, type LoadedIndex } from '../store/layout.js';
import { DictionaryView } from './dictionary.js';
import { PackedPostingsView } from '../store/postings.js';
import { EMPTY_LIST, type PackedList } from '../store/packed.js';
import { term } from './terms.js';
import { kernel as processKernel, type Kernel, type TrackColumns } from '../kernel/kernel.js';

export class TextIndex {
  private readonly dict: DictionaryView;
  readonly trackPostings: PackedPostingsView;
  readonly artistPostings: PackedPostingsView;
  /** Per track (ordinal = position in track id order): its id and the columns track.search's loop reads. */
  readonly track: TrackColumns & { id: Uint32Array };
  /** Per artist (ordinal = position in artist id order). */
  readonly artist: { id: Uint32Array; rating: Uint8Array };

  /** The kernel whose list operations the searches use (--engine). */
  readonly kernel: Kernel;

  constructor(index: LoadedIndex, kernel: Kernel = processKernel) {
    this.kernel = kernel;
    this.dict = new DictionaryView(index, 'text-dict');
    this.trackPostings = new PackedPostingsView(index, 'tt');
    this.artistPostings = new PackedPostingsView(index, 'ta');
    const u32 = (name: string) => column(index, 'text-tracks', name, 'u32');
    this.track = {
      id: u32('id'),
      artist: u32('artist'),
      common: u32('common'),
      genre1: u32('genre1'),
      genre2: u32('genre2'),
      release: u32('release'),
      lang: column(index, 'text-tracks', 'lang', 'u16'),
      flags: column(index, 'text-tracks', 'flags', 'u8'),
      rating: column(index, 'text-tracks', 'rating', 'u8'),
      artistRating: column(index, 'text-tracks', 'artistRating', 'u8'),
    };
    this.artist = { id: column(index, 'text-artists', 'id', 'u32'), rating: column(index, 'text-artists', 'rating', 'u8') };
  }

  /** The posting list of `term(field, value)` (empty when the index has no such term). */
  list(postings: PackedPostingsView, field: string, value: string): PackedList {
    const id = this.dict.lookup(term(field, value));
    return id < 0 ? EMPTY_LIST : postings.list(id);
  }

  /** Posting lists of the grams the index knows, rarest first, and how many grams were asked. */
  gramLists(postings: PackedPostingsView, field: string, grams: string[]): { lists: PackedList[]; grams: number } {
    const lists = grams.map((g) => this.list(postings, field, g)).filter((l) => l.length > 0).sort((a, b) => a.length - b.length);
    return { lists, grams: grams.length };
  }
}
