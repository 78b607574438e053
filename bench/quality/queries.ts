/**
 * The query set: `perBucket` queries in each bucket, drawn with a fixed seed from the catalog's
 * lyrics (half from the real-text corpus, half from the generated distractors) and, for
 * `unrelated`, from held-out fortunes and README prose. A query's relevant set is every track whose
 * lyrics have the same normal form as its source's (versions share lyrics; fortunes repeat).
 * Cached as JSON in the bench data directory.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Catalog } from '../../src/catalog/store.js';
import { isRestricted } from '../../src/api/restrict.js';
import { ROOT } from '../lib/paths.js';
import { shuffled, streamRng, type Rng } from '../lib/random.js';
import { readHeldOut, type BenchPaths, type HeldOut } from './catalog.js';
import { charNoise, embed, excerpt, reformat, wordEdits } from '../../src/loadtest/perturb.js';
import { proseParagraphs } from './prose.js';
import { normalHash, wordCount, wordsOf } from './text.js';

export const BUCKETS = [
  'exact-50', 'exact-100', 'exact-200', 'exact-400', 'format', 'noise-5', 'noise-10', 'noise-20',
  'words-20', 'words-40', 'embedded', 'line', 'unrelated',
] as const;
export type Bucket = (typeof BUCKETS)[number];

export type Origin = 'corpus' | 'generated' | 'heldout' | 'prose';

export interface Query {
  id: number;
  bucket: Bucket;
  origin: Origin;
  /** Track the text was taken from (the held-out track for held-out fortunes; none for prose). */
  source?: number;
  text: string;
  /** The unedited lyric excerpt the text was made from (lyric buckets only). */
  excerpt?: string;
  /** Tracks that count as a correct answer (empty for unrelated texts). */
  relevant: number[];
}

export interface QuerySet {
  /** Layout of this file: a cached set of another version is rebuilt. */
  version: number;
  seed: number;
  perBucket: number;
  tracks: number;
  catalogCreatedAt: string;
  createdAt: string;
  minWords: number;
  /** Held-out fortunes left out of `unrelated` for sharing a passage with an imported text (catalog.ts). */
  heldOutDroppedShared: number;
  vocabularySize: number;
  prose: { paragraphs: number; forUnrelated: number; forEmbedding: number };
  queries: Query[];
}

const QUERY_SET_VERSION = 4;
/** Words a query holds at least (every bucket but `line`, as before the endpoint took short texts). */
export const MIN_WORDS = 10;
/** The `line` bucket: one lyric line of this many words, as a social post quotes it. */
export const LINE_WORDS = { min: 4, max: 9 };
/** Corpus track ids lie below the generator's range (docs/generate.md). */
const GENERATED_ID_BASE = 100_000_000;
const UNRELATED_LENGTH = { min: 100, max: 600 };

interface Candidate {
  id: number;
  length: number;
  hash: string;
}

/** What a bucket makes of a lyric body (the query and the excerpt it came from), or undefined when this body cannot give one. */
type Maker = (rng: Rng, body: string) => { text: string; excerpt: string } | undefined;

function makers(vocabulary: readonly string[], embedPool: readonly string[]): Record<Exclude<Bucket, 'unrelated'>, { minLength: number; make: Maker }> {
  const from200 = (edit: (rng: Rng, text: string) => string) => ({
    minLength: 200,
    make: (rng: Rng, body: string) => {
      const text = excerpt(rng, body, 200);
      return text && wordCount(text) >= MIN_WORDS ? { text: edit(rng, text), excerpt: text } : undefined;
    },
  });
  const exact = (n: number) => ({
    minLength: n,
    make: (rng: Rng, body: string) => {
      const text = excerpt(rng, body, n);
      return text ? { text, excerpt: text } : undefined;
    },
  });
  return {
    'exact-50': exact(50),
    'exact-100': exact(100),
    'exact-200': exact(200),
    'exact-400': exact(400),
    format: from200((rng, t) => reformat(rng, t)),
    'noise-5': from200((rng, t) => charNoise(rng, t, 5)),
    'noise-10': from200((rng, t) => charNoise(rng, t, 10)),
    'noise-20': from200((rng, t) => charNoise(rng, t, 20)),
    'words-20': from200((rng, t) => wordEdits(rng, t, 20, vocabulary)),
    'words-40': from200((rng, t) => wordEdits(rng, t, 40, vocabulary)),
    embedded: from200((rng, t) => embed(rng, t, embedPool)),
    line: {
      minLength: 0,
      make: (rng: Rng, body: string) => {
        const lines = body.split('\n').map((l) => l.trim()).filter((l) => wordCount(l) >= LINE_WORDS.min && wordCount(l) <= LINE_WORDS.max);
        if (lines.length === 0) return undefined;
        const line = rng.pick(lines);
        return { text: line, excerpt: line };
      },
    },
  };
}

/** Whether a key without a country may see the track's lyrics (the server would hide them otherwise). */
function visible(catalog: Catalog, id: number): boolean {
  const track = catalog.getTrack(id);
  const lyrics = catalog.getContent('lyrics', id);
  if (!track || !lyrics || lyrics.instrumental) return false;
  return !isRestricted(track.restricted, track.region_restriction, '') && !isRestricted(lyrics.restricted, lyrics.region_restriction, '');
}

export function querySetFile(paths: BenchPaths, seed: number, perBucket: number): string {
  return path.join(paths.dir, `queries-seed${seed}-per${perBucket}.json`);
}

/** The cached query set, or a new one built from the catalog. */
export function loadOrBuildQueries(paths: BenchPaths, options: { seed: number; perBucket: number; tracks: number; catalogCreatedAt: string }): QuerySet {
  const file = querySetFile(paths, options.seed, options.perBucket);
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as QuerySet;
    if (cached.version === QUERY_SET_VERSION && cached.catalogCreatedAt === options.catalogCreatedAt) return cached;
  }
  const set = buildQueries(paths, options);
  writeFileSync(file, JSON.stringify(set));
  return set;
}

function buildQueries(paths: BenchPaths, options: { seed: number; perBucket: number; tracks: number; catalogCreatedAt: string }): QuerySet {
  const { seed, perBucket } = options;
  const heldOut = readHeldOut(paths);
  const catalog = Catalog.open(paths.refrainData);
  try {
    // One pass over the lyrics: the groups of equal texts, and the candidate sources by origin.
    const groups = new Map<string, number[]>();
    const pools: Record<'corpus' | 'generated', Candidate[]> = { corpus: [], generated: [] };
    for (const id of catalog.trackIds()) {
      const body = catalog.getContent('lyrics', id)?.lyrics_body;
      if (!body) continue;
      const hash = normalHash(body);
      const group = groups.get(hash);
      if (group) group.push(id);
      else groups.set(hash, [id]);
      pools[id < GENERATED_ID_BASE ? 'corpus' : 'generated'].push({ id, length: body.length, hash });
    }
    const bodyOf = (id: number): string => catalog.getContent('lyrics', id)?.lyrics_body ?? '';

    // Vocabulary for word substitutions: the words of 1,000 random lyrics of both origins.
    const vocabRng = streamRng(seed, 'vocabulary');
    const vocabulary = new Set<string>();
    for (const pool of Object.values(pools)) {
      for (let i = 0; i < 500 && pool.length > 0; i++) for (const w of wordsOf(bodyOf(vocabRng.pick(pool).id))) if (w.length > 1) vocabulary.add(w);
    }
    const vocabList = [...vocabulary].sort();

    const { prose, unrelatedProse, embedPool } = proseHalves(seed);

    const queries: Query[] = [];
    const make = makers(vocabList, embedPool);
    for (const bucket of BUCKETS) {
      const rng = streamRng(seed, bucket);
      if (bucket === 'unrelated') {
        queries.push(...unrelatedQueries(rng, heldOut.texts, unrelatedProse, perBucket, queries.length));
        continue;
      }
      const { minLength, make: maker } = make[bucket];
      const counts = { corpus: Math.ceil(perBucket / 2), generated: Math.floor(perBucket / 2) };
      for (const origin of ['corpus', 'generated'] as const) {
        const pool = pools[origin];
        const used = new Set<number>();
        let made = 0;
        for (let attempt = 0; made < counts[origin]; attempt++) {
          if (attempt > 200 * counts[origin] + 10_000 || pool.length === 0) {
            throw new Error(`not enough ${origin} lyrics for ${bucket}: made ${made} of ${counts[origin]}`);
          }
          const c = pool[rng.int(0, pool.length - 1)];
          if (c.length < minLength || used.has(c.id) || !visible(catalog, c.id)) continue;
          const query = maker(rng, bodyOf(c.id));
          if (!query || wordCount(query.text) < (bucket === 'line' ? LINE_WORDS.min : MIN_WORDS)) continue;
          used.add(c.id);
          queries.push({ id: queries.length, bucket, origin, source: c.id, ...query, relevant: groups.get(c.hash) ?? [c.id] });
          made++;
        }
      }
    }
    return {
      version: QUERY_SET_VERSION,
      seed,
      perBucket,
      tracks: options.tracks,
      catalogCreatedAt: options.catalogCreatedAt,
      createdAt: new Date().toISOString(),
      minWords: MIN_WORDS,
      heldOutDroppedShared: heldOut.droppedShared,
      vocabularySize: vocabList.length,
      prose: { paragraphs: prose.length, forUnrelated: unrelatedProse.length, forEmbedding: embedPool.length },
      queries,
    };
  } finally {
    void catalog.close();
  }
}

/** README prose paragraphs, shuffled: one half surrounds embedded excerpts, the other is unrelated text. */
function proseHalves(seed: number): { prose: string[]; unrelatedProse: string[]; embedPool: string[] } {
  const prose = shuffled(streamRng(seed, 'prose'), proseParagraphs(path.join(ROOT, 'node_modules')));
  const half = Math.floor(prose.length / 2);
  return { prose, unrelatedProse: prose.slice(0, half), embedPool: prose.slice(half) };
}

/** An unrelated text the bench may use: 100–600 characters and at least MIN_WORDS words. */
const fitsUnrelated = (t: string): boolean => t.length >= UNRELATED_LENGTH.min && t.length <= UNRELATED_LENGTH.max && wordCount(t) >= MIN_WORDS;

/**
 * Every text the `unrelated` bucket draws from (held-out fortunes, then the unrelated half of the
 * README prose), for a false-positive rate measured on more texts than the bucket holds.
 */
export function unrelatedPool(paths: BenchPaths, seed: number): { origin: 'heldout' | 'prose'; source?: number; text: string }[] {
  return [
    ...readHeldOut(paths)
      .texts.filter((h) => fitsUnrelated(h.text))
      .map((h) => ({ origin: 'heldout' as const, source: h.track_id, text: h.text })),
    ...proseHalves(seed).unrelatedProse.filter(fitsUnrelated).map((text) => ({ origin: 'prose' as const, text })),
  ];
}

/** Half held-out fortunes, half README prose; 100–600 characters and at least MIN_WORDS words. */
function unrelatedQueries(rng: Rng, heldOut: readonly HeldOut[], prose: readonly string[], perBucket: number, firstId: number): Query[] {
  const fortunes = shuffled(rng, heldOut.filter((h) => fitsUnrelated(h.text)));
  const paragraphs = shuffled(rng, prose.filter(fitsUnrelated));
  const nFortunes = Math.min(Math.ceil(perBucket / 2), fortunes.length);
  const nProse = Math.min(perBucket - nFortunes, paragraphs.length);
  const out: Query[] = [];
  for (const h of fortunes.slice(0, nFortunes)) out.push({ id: firstId + out.length, bucket: 'unrelated', origin: 'heldout', source: h.track_id, text: h.text, relevant: [] });
  for (const p of paragraphs.slice(0, nProse)) out.push({ id: firstId + out.length, bucket: 'unrelated', origin: 'prose', text: p, relevant: [] });
  return out;
}

/**
 * At most `perBucket` queries of each bucket, split evenly between its two origins (the first ones
 * drawn), for a system too slow to answer the whole set.
 */
export function subsample(queries: readonly Query[], perBucket: number): Query[] {
  const out: Query[] = [];
  for (const bucket of BUCKETS) {
    const qs = queries.filter((q) => q.bucket === bucket);
    const origins = [...new Set(qs.map((q) => q.origin))];
    origins.forEach((origin, i) => {
      const take = i === 0 ? Math.ceil(perBucket / origins.length) : Math.floor(perBucket / origins.length);
      out.push(...qs.filter((q) => q.origin === origin).slice(0, take));
    });
  }
  return out;
}
