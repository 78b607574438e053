/**
 * bench/scale: a catalog of a given size taken through generate → import → index → serve, each step
 * timed with its throughput, its peak anonymous memory and the disk it leaves; resumable.
 *
 *   npm run bench:scale -- [--tracks 1000000] [--seed 7] [--redo import,index] [--seconds 10]
 *
 * Works in bench/.data/scale-<tracks>/ (the generated catalog.jsonl.gz, the data directory, and `state.json`:
 * the steps finished, with their figures). A run skips the steps `state.json` already holds, so a
 * run killed during a long step (a 10M import) is started again and goes on from that step; `--redo`
 * names steps to run again (a finished import redone starts from an empty data directory). Each
 * step is a `refrain` child process: its peak anonymous memory is the largest `RssAnon` of
 * /proc/<pid>/status sampled every 250 ms (the memory the process owns,
 * without the catalog's memory-mapped pages, which the kernel can drop; VmHWM is kept beside it).
 *
 * The serve step starts `refrain serve` on the data directory (start-up: until it listens, its index
 * loaded and its workers warm) and measures, each for `--seconds` with 8 connections:
 *   - track.get of uniform random ids with the response cache off, warm;
 *   - track.lyrics.fingerprint.post of 200-character excerpts of random lyrics, 4 connections;
 *   - (the server's anonymous memory then)
 *   - track.get again, for 3 s right after the page cache was dropped (`/proc/sys/vm/drop_caches`,
 *     when this process may write it: the data directory read from disk, as when it is larger than
 *     memory). Figures go to bench/results/scale-<tracks>.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Catalog } from '../../src/catalog/store.js';
import { benchArgs } from '../lib/args.js';
import { benchKey } from '../lib/catalog.js';
import { bytesUnder, CPU_COLUMN, cpuByThread, cpuCell, cpuPerRequest, load, LOAD_GENERATOR, machine, type BenchRequest } from '../lib/measure.js';
import { DATA_DIR, ROOT, writeResult } from '../lib/paths.js';
import { Rng } from '../lib/random.js';
import { startRefrain } from '../lib/servers.js';

const args = benchArgs({ tracks: 1000000, seed: 7, redo: '', seconds: 10 });
const { tracks, seed, seconds } = args;
const STEPS = ['generate', 'import', 'index', 'serve'] as const;
type Step = (typeof STEPS)[number];
const redo = new Set(args.redo.split(',').filter(Boolean));
/** A wrong command line: one line saying why, and the usage exit status. */
function usage(message: string): never {
  console.error(message);
  process.exit(2);
}
for (const s of redo) if (!(STEPS as readonly string[]).includes(s)) usage(`--redo: ${s} is not one of ${STEPS.join(', ')}`);

const dir = path.join(DATA_DIR, `scale-${tracks}`);
// Gzipped, as catalogs are shipped: a 10M plain file would be 84 GB beside a 50 GB data directory.
const file = path.join(dir, 'catalog.jsonl.gz');
const data = path.join(dir, 'data');
const stateFile = path.join(dir, 'state.json');
mkdirSync(dir, { recursive: true });

interface StepResult {
  at: string;
  seconds: number;
  /** Tracks per second, where the step has a rate. */
  rate?: number;
  /** Peak RssAnon and VmHWM of the step's process, bytes. */
  peakAnon: number;
  peakRss: number;
  /** Bytes on disk after the step: the generated file, or the data directory. */
  disk: number;
  detail: Record<string, unknown>;
}
interface State {
  tracks: number;
  seed: number;
  steps: Partial<Record<Step, StepResult>>;
}

const state: State = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State) : { tracks, seed, steps: {} };
if (state.seed !== seed) usage(`${dir} holds a catalog of seed ${state.seed}: remove it or pass --seed ${state.seed}`);
const save = () => writeFileSync(stateFile, JSON.stringify(state, null, 2));

/** A process's RssAnon and VmHWM (bytes) now, or undefined once it is gone. */
function memoryOf(pid: number): { anon: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { anon: kb('RssAnon'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Runs `refrain <args>` to its end, sampling its memory; its stdout (the --json report) parsed. */
async function refrain(cliArgs: string[]): Promise<{ seconds: number; peakAnon: number; peakRss: number; report: Record<string, unknown> }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/refrain.js'), ...cliArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let peakAnon = 0;
  let peakRss = 0;
  const sample = setInterval(() => {
    const m = memoryOf(child.pid!);
    if (m) [peakAnon, peakRss] = [Math.max(peakAnon, m.anon), Math.max(peakRss, m.hwm)];
  }, 250);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sample);
  if (code !== 0) throw new Error(`refrain ${cliArgs.join(' ')} exited with ${code}`);
  return { seconds: (performance.now() - t0) / 1000, peakAnon, peakRss, report: JSON.parse(out) as Record<string, unknown> };
}

async function run(step: Step): Promise<StepResult> {
  const at = new Date().toISOString();
  /** A step's figures from its run and what it left on disk. */
  const measured = (r: Awaited<ReturnType<typeof refrain>>, disk: number): StepResult =>
    ({ at, seconds: r.seconds, rate: tracks / r.seconds, peakAnon: r.peakAnon, peakRss: r.peakRss, disk, detail: r.report });
  switch (step) {
    case 'generate':
      return measured(await refrain(['generate', '--tracks', String(tracks), '--seed', String(seed), '--out', file, '--json']), statSync(file).size);
    case 'import':
      // A finished import run again (--redo import: another build) starts from an empty data
      // directory; one that was killed is resumed: it finds the lines written before unchanged
      // (same hash) and goes on from there.
      if (state.steps.import) rmSync(data, { recursive: true, force: true });
      return measured(await refrain(['import', file, '--data', data, '--no-index', '--nice', '0', '--json']), bytesUnder(data));
    case 'index':
      return measured(await refrain(['index', '--data', data, '--force', '--json']), bytesUnder(data));
    case 'serve':
      return serve(at);
  }
}

/** 200-character excerpts from the middle of random lyrics, and uniform random track ids. */
function queries(key: string): { lookups: BenchRequest[]; excerpts: BenchRequest[] } {
  const catalog = Catalog.open(data);
  try {
    const rng = new Rng(seed);
    const ids = [...catalog.trackIds()];
    const lookups = Array.from({ length: 20_000 }, (): BenchRequest => ({ method: 'GET', path: `/ws/1.1/track.get?track_id=${rng.pick(ids)}&apikey=${key}` }));
    const excerpts: BenchRequest[] = [];
    while (excerpts.length < 2_000) {
      const body = catalog.getContent('lyrics', rng.pick(ids))?.lyrics_body;
      if (!body || body.length < 400) continue;
      const from = Math.floor(body.length / 2) - 100;
      excerpts.push({
        method: 'POST', path: `/ws/1.1/track.lyrics.fingerprint.post?apikey=${key}`, body: JSON.stringify({ data: { text: body.slice(from, from + 200) } }),
      });
    }
    return { lookups, excerpts };
  } finally {
    void catalog.close();
  }
}

/** Drops the page cache when this process may (root): the next reads come from disk. */
function dropPageCache(): boolean {
  try {
    spawnSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '1\n');
    return true;
  } catch {
    return false;
  }
}

async function serve(at: string): Promise<StepResult> {
  const catalog = Catalog.open(data);
  const key = benchKey(catalog, 'bench/scale');
  await catalog.close();
  const { lookups, excerpts } = queries(key);
  const server = await startRefrain(data, ['--response-cache', '0']);
  try {
    const measure = async (requests: BenchRequest[], connections: number, forSeconds = seconds) => {
      const before = cpuByThread(server.pid);
      const row = await load(server.url, { seconds: forSeconds, connections, requests });
      return { ...row, cpu: cpuPerRequest(before, cpuByThread(server.pid), row.requests) };
    };
    await load(server.url, { seconds: 2, connections: 8, requests: lookups }); // warm-up
    const warm = await measure(lookups, 8);
    await load(server.url, { seconds: 2, connections: 4, requests: excerpts });
    const fingerprint = await measure(excerpts, 4);
    const memory = memoryOf(server.pid);
    // Last, so that it is the only row on a cold page cache (each fingerprint verifies candidates
    // against their lyrics: measured after the drop, that row measured the disk, 113 against ~600/s).
    const dropped = dropPageCache();
    // Short: the ids read refill the page cache as the row goes on.
    const cold = dropped ? await measure(lookups.slice().reverse(), 8, Math.min(seconds, 3)) : undefined;
    return {
      at, seconds: server.startSeconds, peakAnon: memory?.anon ?? 0, peakRss: memory?.hwm ?? 0, disk: bytesUnder(data),
      detail: { warm, cold, fingerprint, pageCacheDropped: dropped },
    };
  } finally {
    await server.stop();
  }
}

for (const step of STEPS) {
  if (state.steps[step] && !redo.has(step)) {
    console.error(`${step}: done ${state.steps[step].at} (--redo ${step} runs it again)`);
    continue;
  }
  console.error(`${step}…`);
  state.steps[step] = await run(step);
  // A step redone invalidates the steps after it.
  for (const later of STEPS.slice(STEPS.indexOf(step) + 1)) if (state.steps[later] && !redo.has(later)) redo.add(later);
  save();
}

const gib = (n: number) => `${(n / 2 ** 30).toFixed(2)} GiB`;
const per = (n: number) => `${Math.round(n / tracks).toLocaleString('en')} B/track`;
const row = (name: string, r: StepResult | undefined, rate = true) =>
  r ? `| ${name} | ${r.seconds.toFixed(0)} s | ${rate && r.rate ? `${Math.round(r.rate).toLocaleString('en')} tracks/s` : ''} | ${gib(r.peakAnon)} | ${gib(r.disk)} (${per(r.disk)}) |` : `| ${name} | not run | | | |`;
type Load = { rps: number; p50ms: number; p99ms: number; non2xx: number; errors: number; cpu: Parameters<typeof cpuCell>[0] };
const loadRow = (name: string, l: Load | undefined) =>
  l ? `| ${name} | ${Math.round(l.rps).toLocaleString('en')} | ${l.p50ms.toFixed(2)} | ${l.p99ms.toFixed(2)} | ${l.non2xx + l.errors} | ${cpuCell(l.cpu)} |` : `| ${name} | not measured | | | | |`;
const served = state.steps.serve?.detail as { warm: Load; cold?: Load; fingerprint: Load; pageCacheDropped: boolean } | undefined;
const table = [
  `bench/scale — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}; ${tracks.toLocaleString('en')} generated tracks (seed ${seed}), ${dir}`,
  '',
  '| step | time | rate | peak anonymous memory | disk after |',
  '|---|---:|---:|---:|---:|',
  row('generate (gzip)', state.steps.generate),
  row('import (`--no-index`)', state.steps.import),
  row('index (`refrain index --force`)', state.steps.index),
  row('serve: start-up to listening, index loaded; memory once the rows below ran', state.steps.serve, false),
  '',
  `${LOAD_GENERATOR}, ${seconds} s a row, response cache off:`,
  '',
  `| request | requests/s | p50 ms | p99 ms | errors | ${CPU_COLUMN} |`,
  '|---|---:|---:|---:|---:|---:|',
  loadRow('track.get, uniform ids, after a 2 s warm-up (8 connections)', served?.warm),
  loadRow(`track.get, uniform ids, the first 3 s after the page cache was dropped (8 connections)${served && !served.pageCacheDropped ? ': not root, not measured' : ''}`, served?.cold),
  loadRow('fingerprint, 200-character excerpts (4 connections)', served?.fingerprint),
].join('\n');
console.log(table);
writeResult(`scale-${tracks}`, table, { machine: machine(), ...state });
