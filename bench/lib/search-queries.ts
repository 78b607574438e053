/**
 * bench/search's query sets, seeded (tracks: seed 20, choices: seed 21), shared by run.ts (latency
 * and throughput) and answers.ts (the answers of two builds compared):
 *   - track.search: a title word (q_track), a title word + the artist's surname (q_track_artist),
 *     an artist name (q_artist) with f_has_lyrics=1, and a lyrics word pair (q_lyrics), in turn;
 *   - matcher.track.get: the title and artist as stored (half), with a typo in the title (a
 *     quarter) or with " - Live" appended (a quarter).
 */
import type { Catalog } from '../../src/catalog/store.js';
import type { MatchQuery, TrackQuery } from '../../src/index/text/search.js';
import { normalizeText, wordsOf } from '../../src/index/kernel/normalize.js';
import { sampleTracks } from './index-bench.js';
import { Rng } from './random.js';

export interface Search {
  /** The request's parameters. */
  params: Record<string, string>;
  /** The same as the engine takes it. */
  query: TrackQuery;
}

export function searchQuerySets(catalog: Catalog, count: number): { sample: number[]; searches: Search[]; matches: MatchQuery[] } {
  const rng = new Rng(21);
  const pick = <T>(xs: T[]): T => rng.pick(xs);
  const sample = sampleTracks(catalog, count, 20, (id) => catalog.getTrack(id)?.has_lyrics === 1);
  const searches: Search[] = sample.map((id, i): Search => {
    const t = catalog.getTrack(id)!;
    const title = wordsOf(normalizeText(t.track_name)).filter((w) => w.length > 2);
    const artist = wordsOf(normalizeText(t.artist_name));
    const lyrics = wordsOf(normalizeText(catalog.getContent('lyrics', id)?.lyrics_body ?? '')).filter((w) => w.length > 3);
    const base = { offset: 0, limit: 10 };
    switch (i % 4) {
      case 0: {
        const w = pick(title.length ? title : artist);
        return { params: { q_track: w }, query: { ...base, words: { q_track: w } } };
      }
      case 1: {
        const w = `${pick(title.length ? title : artist)} ${artist[artist.length - 1]}`;
        return { params: { q_track_artist: w }, query: { ...base, words: { q_track_artist: w } } };
      }
      case 2:
        return { params: { q_artist: t.artist_name, f_has_lyrics: '1' }, query: { ...base, words: { q_artist: t.artist_name }, hasLyrics: true } };
      default: {
        const w = lyrics.length > 1 ? `${pick(lyrics)} ${pick(lyrics)}` : t.track_name;
        return { params: { q_lyrics: w }, query: { ...base, words: { q_lyrics: w } } };
      }
    }
  });

  const matches: MatchQuery[] = sample.map((id, i) => {
    const t = catalog.getTrack(id)!;
    if (i % 4 === 2 && t.track_name.length > 4) {
      const at = rng.int(1, t.track_name.length - 2);
      return { title: t.track_name.slice(0, at) + t.track_name.slice(at + 1), artist: t.artist_name };
    }
    if (i % 4 === 3) return { title: `${t.track_name} - Live`, artist: t.artist_name };
    return { title: t.track_name, artist: t.artist_name };
  });
  return { sample, searches, matches };
}
