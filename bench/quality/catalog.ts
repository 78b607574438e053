/**
 * The bench catalog (bench/.data/quality-<N>/): the real-text corpora minus a held-out twentieth,
 * plus synthetic distractors up to N tracks, imported with `refrain import` (and indexed with
 * `refrain index` when that command exists). Built once; `catalog.json` marks a finished build.
 *
 * Held-out tracks (track_id % 20 === 0) are never imported: they are the realistic "unrelated"
 * texts. One whose normal form equals an imported text, or is contained in one, is dropped, since
 * the catalog does hold it.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { generateCatalog } from '../../src/generate/index.js';
import { DATA_DIR, ROOT } from '../lib/paths.js';
import { refrain, refrainCommands } from './refrain-cli.js';
import { normalize, wordsOf } from './text.js';

export const CORPUS_DIR = '/work/shared/corpus';
export const DISTRACTOR_SEED = 7;
const HELD_OUT_MODULUS = 20;
/** A big generated file (seed 7) that earlier benches left; its first lines are a smaller catalog. */
const BIG_GENERATED = path.join(DATA_DIR, 'generated-1000000.jsonl');

export interface CatalogInfo {
  tracks: number;
  corpusTracks: number;
  generatedTracks: number;
  heldOut: { total: number; kept: number; droppedEqual: number; droppedContained: number };
  distractorSource: string;
  seconds: { split: number; distractors: number; import: number; index?: number };
  indexCommand: boolean;
  /** indexCodeHash() of the build that made the index. */
  indexCode?: string;
  createdAt: string;
}

export interface HeldOut {
  track_id: number;
  text: string;
  language: string;
}

export interface BenchPaths {
  dir: string;
  refrainData: string;
  marker: string;
  heldOut: string;
  lyricsTsv: string;
}

export function benchPaths(tracks: number): BenchPaths {
  return benchPathsIn(path.join(DATA_DIR, `quality-${tracks}`));
}

/** The files of a quality bench directory. */
export function benchPathsIn(dir: string): BenchPaths {
  return {
    dir,
    refrainData: path.join(dir, 'refrain'),
    marker: path.join(dir, 'catalog.json'),
    heldOut: path.join(dir, 'heldout.jsonl'),
    lyricsTsv: path.join(dir, 'lyrics.tsv'),
  };
}

async function* jsonLines(file: string): AsyncGenerator<string> {
  const input = file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
  for await (const line of createInterface({ input, crlfDelay: Infinity })) if (line) yield line;
}

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

async function close(out: WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

interface TrackLine {
  type: string;
  track_id?: number;
  lyrics?: { lyrics_body?: string; lyrics_language?: string };
}

/** Split the corpora into the import file and the held-out texts. */
async function splitCorpus(paths: BenchPaths, keptFile: string): Promise<{ kept: number; heldOut: CatalogInfo['heldOut'] }> {
  const out = createWriteStream(keptFile);
  const keptNormal = new Set<string>();
  const keptTexts: string[] = [];
  const held: HeldOut[] = [];
  let kept = 0;
  const files = readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.jsonl.gz')).sort();
  for (const f of files) {
    for await (const line of jsonLines(path.join(CORPUS_DIR, f))) {
      const record = JSON.parse(line) as TrackLine;
      const body = record.lyrics?.lyrics_body ?? '';
      if (record.type === 'track' && record.track_id !== undefined && record.track_id % HELD_OUT_MODULUS === 0) {
        held.push({ track_id: record.track_id, text: body, language: record.lyrics?.lyrics_language ?? '' });
        continue;
      }
      if (record.type === 'track') {
        kept++;
        const n = normalize(body);
        keptNormal.add(n);
        keptTexts.push(n);
      }
      await write(out, line + '\n');
    }
  }
  await close(out);
  // One string of every imported text: a held-out text found inside it is not unrelated.
  const haystack = `\n${keptTexts.join('\n')}\n`;
  const heldOut = { total: held.length, kept: 0, droppedEqual: 0, droppedContained: 0 };
  const heldOutStream = createWriteStream(paths.heldOut);
  for (const h of held) {
    const n = normalize(h.text);
    if (!n || keptNormal.has(n)) heldOut.droppedEqual++;
    else if (haystack.includes(n)) heldOut.droppedContained++;
    else {
      heldOut.kept++;
      await write(heldOutStream, JSON.stringify(h) + '\n');
    }
  }
  await close(heldOutStream);
  return { kept, heldOut };
}

/** True when `file` starts with what `refrain generate --seed 7` writes (checked on its first 500 tracks). */
async function isSeed7Stream(file: string): Promise<boolean> {
  const expected = [...generateCatalog({ tracks: 500, seed: DISTRACTOR_SEED }).lines];
  let i = 0;
  for await (const line of jsonLines(file)) {
    if (line !== expected[i]) return false;
    if (++i === expected.length) return true;
  }
  return false;
}

/**
 * Write `tracks` generated tracks (seed 7) to `file`. The generator's output is a prefix-stable
 * stream (a catalog of M tracks is the first lines of a bigger one, up to its M-th track line), so
 * the 1M file of bench/import is cut when present; otherwise `refrain generate` writes it.
 */
async function writeDistractors(tracks: number, file: string): Promise<string> {
  if (existsSync(BIG_GENERATED) && tracks <= 1_000_000 && (await isSeed7Stream(BIG_GENERATED))) {
    const out = createWriteStream(file);
    let seen = 0;
    for await (const line of jsonLines(BIG_GENERATED)) {
      if (seen === tracks) break;
      if (line.startsWith('{"type":"track"')) seen++;
      await write(out, line + '\n');
    }
    await close(out);
    if (seen < tracks) throw new Error(`${BIG_GENERATED} holds only ${seen} tracks`);
    return `first ${tracks.toLocaleString('en')} tracks of ${path.relative(ROOT, BIG_GENERATED)} (verified to be the seed-${DISTRACTOR_SEED} stream)`;
  }
  await refrain(['generate', '--tracks', String(tracks), '--seed', String(DISTRACTOR_SEED), '--out', file]);
  return `refrain generate --tracks ${tracks} --seed ${DISTRACTOR_SEED}`;
}

const hasIndexCommand = (): boolean => refrainCommands().includes('index');

/** Run `refrain index` (`--force`: rebuild even if it looks current) when the command exists; returns its time. */
async function buildIndex(paths: BenchPaths, force: boolean): Promise<number | undefined> {
  if (!hasIndexCommand()) return undefined;
  console.error(`refrain index${force ? ' --force' : ''}…`);
  return (await refrain(['index', '--data', paths.refrainData, ...(force ? ['--force'] : [])])).seconds;
}

/** A hash of the compiled index code: a change means the stored index may be stale. */
function indexCodeHash(): string {
  const dir = path.join(ROOT, 'dist/src/index');
  if (!existsSync(dir)) return '';
  const hash = createHash('sha1');
  // Every module of the index, its subfolders' too (index/kernel/, index/fingerprint/, …).
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.js')).sort();
  for (const f of files) hash.update(f).update(readFileSync(path.join(dir, f)));
  return hash.digest('hex');
}

/**
 * The catalog of `tracks` tracks, built if missing. The index is rebuilt (`refrain index --force`)
 * with `reindex`, and whenever the index code (dist/src/index) differs from the build that made it:
 * an index written by another build may not be readable by this one.
 */
export async function ensureCatalog(tracks: number, options: { reindex: boolean }): Promise<CatalogInfo> {
  const paths = benchPaths(tracks);
  if (existsSync(paths.marker)) {
    const info = JSON.parse(readFileSync(paths.marker, 'utf8')) as CatalogInfo;
    if (info.tracks !== tracks) throw new Error(`${paths.marker} describes ${info.tracks} tracks, not ${tracks}`);
    const code = indexCodeHash();
    if (options.reindex || info.indexCode !== code) {
      const index = await buildIndex(paths, true);
      if (index !== undefined) {
        info.seconds.index = index;
        info.indexCommand = true;
        info.indexCode = code;
        writeFileSync(paths.marker, JSON.stringify(info, null, 2));
      }
    }
    return info;
  }

  mkdirSync(paths.dir, { recursive: true });
  // A build that stopped half-way leaves a partial import: start that part over.
  rmSync(paths.refrainData, { recursive: true, force: true });
  const keptFile = path.join(paths.dir, 'corpus-kept.jsonl');
  let t0 = performance.now();
  console.error('splitting the corpora (held-out: track_id % 20 === 0)…');
  const { kept, heldOut } = await splitCorpus(paths, keptFile);
  const split = (performance.now() - t0) / 1000;
  const generated = tracks - kept;
  if (generated < 0) throw new Error(`--tracks must be at least ${kept} (the imported corpus tracks)`);

  t0 = performance.now();
  const generatedFile = path.join(paths.dir, `generated-${generated}.jsonl`);
  console.error(`writing ${generated.toLocaleString('en')} distractor tracks…`);
  const distractorSource = generated > 0 ? await writeDistractors(generated, generatedFile) : 'none';
  const distractors = (performance.now() - t0) / 1000;

  console.error('refrain import…');
  const files = generated > 0 ? [keptFile, generatedFile] : [keptFile];
  const imported = await refrain(['import', '--data', paths.refrainData, '--batch', '5000', '--json', ...files], [0, 3]);
  const report = JSON.parse(imported.stdout) as { rejected: number };
  if (report.rejected > 0) console.error(`warning: the import rejected ${report.rejected} lines`);
  const index = await buildIndex(paths, false);
  // The distractor file can be cut or generated again; it is the bulk of the disk use.
  rmSync(generatedFile, { force: true });

  const info: CatalogInfo = {
    tracks,
    corpusTracks: kept,
    generatedTracks: generated,
    heldOut,
    distractorSource,
    seconds: { split, distractors, import: imported.seconds, index },
    indexCommand: index !== undefined,
    indexCode: indexCodeHash(),
    createdAt: new Date().toISOString(),
  };
  writeFileSync(paths.marker, JSON.stringify(info, null, 2));
  return info;
}

/** A held-out text sharing this many consecutive words with an imported text is not unrelated. */
export const SHARED_PASSAGE_WORDS = 8;

/**
 * The held-out texts kept as unrelated queries, less those that share a passage of
 * SHARED_PASSAGE_WORDS words (normal form) with an imported text: the split at build time drops
 * held-out texts equal to or inside an imported one, this also drops those that quote one (an
 * imported fortune inside a held-out one with its attribution) or overlap it. Flagging such a text
 * is right, so it can count neither as a false positive nor as a miss.
 */
export function readHeldOut(paths: BenchPaths): { texts: HeldOut[]; droppedShared: number } {
  const shingles = new Set<string>();
  for (const line of readFileSync(path.join(paths.dir, 'corpus-kept.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const record = JSON.parse(line) as TrackLine;
    if (record.type !== 'track') continue;
    for (const s of passages(record.lyrics?.lyrics_body ?? '')) shingles.add(s);
  }
  const all = readFileSync(paths.heldOut, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as HeldOut);
  const texts = all.filter((h) => !passages(h.text).some((s) => shingles.has(s)));
  return { texts, droppedShared: all.length - texts.length };
}

/** Every run of SHARED_PASSAGE_WORDS consecutive words of a text's normal form. */
function passages(text: string): string[] {
  const words = wordsOf(text);
  const out: string[] = [];
  for (let i = 0; i + SHARED_PASSAGE_WORDS <= words.length; i++) out.push(words.slice(i, i + SHARED_PASSAGE_WORDS).join(' '));
  return out;
}
