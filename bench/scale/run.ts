/**
 * bench/scale: a catalog of a given size taken through generate → import → index → serve, each step
 * timed with its throughput, its peak anonymous memory and the disk it leaves; resumable.
 *
 *   npm run bench:scale -- [--tracks 1000000] [--seed 7] [--redo import,index] [--seconds 10] [--page-cache-mib 1024]
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
 *   - then, in a second server, track.get with its page cache held to `--page-cache-mib` (default
 *     1024; 0 leaves it out): the page cache is dropped, the server started in a memory cgroup of its
 *     own, and once it is up the cgroup's limit set to its anonymous memory plus that size
 *     (bench/lib/page-cache.ts; root only), so the kernel reclaims the catalog's pages beyond it,
 *     mapped ones included: reads of a data directory many times larger than the page cache, with
 *     the major page faults (reads that waited for the disk) per request. The first 3 s, then
 *     `--seconds` more.
 * Figures go to bench/results/scale-<tracks>.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Catalog } from '../../src/catalog/store.js';
import { benchArgs } from '../lib/args.js';
import { benchKey } from '../lib/catalog.js';
import { bytesUnder, CPU_COLUMN, cpuByThread, cpuCell, cpuPerRequest, load, LOAD_GENERATOR, machine, majorFaults, type BenchRequest } from '../lib/measure.js';
import { DATA_DIR, ROOT, writeResult } from '../lib/paths.js';
import { Rng } from '../lib/random.js';
import { startRefrain } from '../lib/servers.js';
import { dropPageCache, memoryCgroup, type MemoryCgroup } from '../lib/page-cache.js';

const args = benchArgs({ tracks: 1000000, seed: 7, redo: '', seconds: 10, 'page-cache-mib': 1024 });
const { tracks, seed, seconds } = args;
const pageCacheMib = args['page-cache-mib'];
/** Track ids the held rows read, each once: more than two rows at 8 connections can ask for. */
const HELD_LOOKUPS = 1_000_000;
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

/**
 * 200-character excerpts from the middle of random lyrics; 20,000 uniform random track ids, read
 * over and over by the warm row; and HELD_LOOKUPS more, which the rows with the page cache held
 * read once each (ids read again would be served from the pages the first read brought in).
 */
function queries(key: string): { lookups: BenchRequest[]; excerpts: BenchRequest[]; once: BenchRequest[] } {
  const catalog = Catalog.open(data);
  try {
    const rng = new Rng(seed);
    const ids = [...catalog.trackIds()];
    const lookup = (): BenchRequest => ({ method: 'GET', path: `/ws/1.1/track.get?track_id=${rng.pick(ids)}&apikey=${key}` });
    const lookups = Array.from({ length: 20_000 }, lookup);
    const once = Array.from({ length: HELD_LOOKUPS }, lookup);
    const excerpts: BenchRequest[] = [];
    while (excerpts.length < 2_000) {
      const body = catalog.getContent('lyrics', rng.pick(ids))?.lyrics_body;
      if (!body || body.length < 400) continue;
      const from = Math.floor(body.length / 2) - 100;
      excerpts.push({
        method: 'POST', path: `/ws/1.1/track.lyrics.fingerprint.post?apikey=${key}`, body: JSON.stringify({ data: { text: body.slice(from, from + 200) } }),
      });
    }
    return { lookups, excerpts, once };
  } finally {
    void catalog.close();
  }
}

async function serve(at: string): Promise<StepResult> {
  const catalog = Catalog.open(data);
  const key = benchKey(catalog, 'bench/scale');
  await catalog.close();
  const { lookups, excerpts, once } = queries(key);
  const cgroup = pageCacheMib > 0 ? memoryCgroup('refrain-bench-scale') : 'not asked (--page-cache-mib 0)';
  try {
    return await serveIn(at, cgroup, lookups, excerpts, once);
  } finally {
    if (typeof cgroup !== 'string') cgroup.release();
  }
}

/** The serve step's rows; those with a page cache held when there is a cgroup to hold it. */
async function serveIn(at: string, cgroup: MemoryCgroup | string, lookups: BenchRequest[], excerpts: BenchRequest[], once: BenchRequest[]): Promise<StepResult> {
  const server = await startRefrain(data, ['--response-cache', '0']);
  let warm: Load, fingerprint: Load, memory: ReturnType<typeof memoryOf>;
  try {
    await load(server.url, { seconds: 2, connections: 8, requests: lookups }); // warm-up
    warm = await measured(server.pid, server.url, lookups, 8, seconds);
    await load(server.url, { seconds: 2, connections: 4, requests: excerpts });
    fingerprint = await measured(server.pid, server.url, excerpts, 4, seconds);
    memory = memoryOf(server.pid);
  } finally {
    await server.stop();
  }
  const held = typeof cgroup === 'string' ? cgroup : await servedHeld(cgroup, once);
  return {
    at, seconds: server.startSeconds, peakAnon: memory?.anon ?? 0, peakRss: memory?.hwm ?? 0, disk: bytesUnder(data),
    detail: { warm, fingerprint, held },
  };
}

/** A row of load on a server, with the server's CPU per request and its major page faults per request. */
async function measured(pid: number, url: string, requests: BenchRequest[], connections: number, forSeconds: number): Promise<Load & { faultsPerRequest: number }> {
  const [cpu, faults] = [cpuByThread(pid), majorFaults(pid)];
  const row = await load(url, { seconds: forSeconds, connections, requests });
  return { ...row, cpu: cpuPerRequest(cpu, cpuByThread(pid), row.requests), faultsPerRequest: (majorFaults(pid) - faults) / Math.max(1, row.requests) };
}

/** track.get on a server started on an empty page cache in `cgroup`, its page cache then held to --page-cache-mib. */
async function servedHeld(cgroup: MemoryCgroup, lookups: BenchRequest[]): Promise<Held> {
  dropPageCache();
  const server = await startRefrain(data, ['--response-cache', '0'], (pid) => cgroup.add(pid));
  try {
    cgroup.holdPageCache(pageCacheMib * 2 ** 20);
    // Halves of the list, so that no id is read twice (at most HELD_LOOKUPS / 2 requests a row).
    const first = await measured(server.pid, server.url, lookups.slice(0, lookups.length / 2), 8, 3);
    const then = await measured(server.pid, server.url, lookups.slice(lookups.length / 2), 8, seconds);
    return { first, then, pageCacheMib, fileMib: Math.round(cgroup.usage().file / 2 ** 20) };
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
type Held = { first: Load & { faultsPerRequest: number }; then: Load & { faultsPerRequest: number }; pageCacheMib: number; fileMib: number };
const served = state.steps.serve?.detail as { warm: Load; fingerprint: Load; held?: Held | string } | undefined;
const held = served?.held;
const heldName = (h: Held, when: string, row: Held['first']) =>
  `track.get, uniform ids each read once, ${when} with the server's page cache held to ${h.pageCacheMib.toLocaleString('en')} MiB ` +
  `(${h.fileMib.toLocaleString('en')} MiB cached at the end; ${row.faultsPerRequest.toFixed(2)} major page faults per request) (8 connections)`;
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
  loadRow('track.get, 20,000 uniform ids read over and over, after a 2 s warm-up (8 connections)', served?.warm),
  ...(typeof held === 'object'
    ? [loadRow(heldName(held, 'the first 3 s', held.first), held.first), loadRow(heldName(held, `the next ${seconds} s`, held.then), held.then)]
    : [loadRow(`track.get with the page cache held${held ? `: ${held}` : ''}`, undefined)]),
  loadRow('fingerprint, 200-character excerpts (4 connections)', served?.fingerprint),
].join('\n');
console.log(table);
writeResult(`scale-${tracks}`, table, { machine: machine(), ...state });
