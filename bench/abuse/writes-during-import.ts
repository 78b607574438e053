/**
 * bench/abuse/writes-during-import: does a write on a request path stall the server while an
 * import holds LMDB's write lock? (issue 11, item 5; before the fix work.post waited for the lock
 * on the event loop: track.get p99 19 ms → 1,049 ms.)
 *
 *   npm run bench:writes-during-import -- [--base-tracks 5000] [--tracks 200000] [--max-seconds 120] [--nice 0,10] [--smoke]
 *
 * A server runs on a fresh data directory holding a small catalog (`--base-tracks`); for
 * `--baseline-seconds` it serves track.get (4 clients, closed loop) and 5 work.post/s, then the same
 * load runs while `refrain import` loads another generated catalog (`--tracks`) into the same data
 * directory, until the import ends or `--max-seconds` pass. One import phase runs per `--nice` value
 * (the import's `--nice`: 0 is a normal priority, 10 the import's default), each loading its own
 * catalog (seeds 2, 3, …). Reports track.get p50/p99 and the work.post latencies in every phase; the
 * target is track.get p99 < 25 ms during an import at the default priority.
 * Only 127.0.0.1; everything (server, import, temp directory) is stopped and removed at the end.
 * `--smoke` is a small, quick run (500 + 5,000 tracks, at most 20 s) that writes no result file.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { writeCatalog } from '../../src/generate/write.js';
import { benchArgs } from '../lib/args.js';
import { benchKey } from '../lib/catalog.js';
import { machine, cleanUpOnExit } from '../lib/measure.js';
import { ROOT, writeResult } from '../lib/paths.js';
import { startRefrain } from '../lib/servers.js';

const args = benchArgs({
  'base-tracks': 5000,
  tracks: 200000,
  'baseline-seconds': 10,
  'max-seconds': 120,
  'posts-per-second': 5,
  nice: [0, 10],
  smoke: false,
});
const smoke = args.smoke;
const baseTracks = smoke ? 500 : args['base-tracks'];
const importTracks = smoke ? 5000 : args.tracks;
const baselineSeconds = smoke ? 3 : args['baseline-seconds'];
const maxSeconds = smoke ? 20 : args['max-seconds'];
const postsPerSecond = args['posts-per-second'];
const nices = args.nice;
const TARGET_P99_MS = 25;
const DEFAULT_NICE = 10;
const GET_CLIENTS = 4;

const dir = mkdtempSync(path.join(tmpdir(), 'refrain-writes-bench-'));
const data = path.join(dir, 'data');
const { stops, cleanUp } = cleanUpOnExit([() => rmSync(dir, { recursive: true, force: true })]);

try {
  console.error(`generating ${baseTracks} + ${importTracks} tracks…`);
  const baseFile = path.join(dir, 'base.jsonl');
  const importFileOf = nices.map((_, i) => path.join(dir, `import-${i}.jsonl`));
  await writeCatalog({ tracks: baseTracks, seed: 1 }, baseFile);
  for (const [i, file] of importFileOf.entries()) await writeCatalog({ tracks: importTracks, seed: 2 + i }, file);
  const catalog = Catalog.open(data);
  await importFiles(catalog, [baseFile]);
  const key = benchKey(catalog, 'bench/abuse/writes-during-import');
  const trackIds = [...catalog.trackIds()];
  const isrcs = trackIds.map((id) => catalog.getTrack(id)?.track_isrc ?? '').filter(Boolean);
  await catalog.close();

  const server = await startRefrain(data);
  stops.push(server.stop);
  console.error(`server at ${server.url}`);

  let posted = 0;
  const work = () => ({
    identifier: `BENCH-${++posted}`,
    title: `Bench Work ${posted}`,
    isrc: isrcs.length ? [isrcs[posted % isrcs.length]] : [],
    owners: { writer: [{ name: `Writer ${posted % 50}`, perf_ownership_share: 5000 }], publisher: [] },
  });

  /** Runs the load until `done` resolves; returns track.get and work.post latencies (ms) and failures. */
  async function load(done: Promise<unknown>) {
    let stop = false;
    void done.finally(() => (stop = true));
    const gets: number[] = [];
    const posts: number[] = [];
    let failures = 0;
    let n = 0;
    const getter = async () => {
      while (!stop) {
        const id = trackIds[(n++ * 7919) % trackIds.length];
        const t0 = performance.now();
        const res = await fetch(`${server.url}/ws/1.1/track.get?track_id=${id}&apikey=${key}`);
        await res.arrayBuffer();
        gets.push(performance.now() - t0);
        if (res.status !== 200) failures++;
      }
    };
    const poster = async () => {
      const pending: Promise<void>[] = [];
      for (let next = performance.now(); !stop; next += 1000 / postsPerSecond) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        if (stop) break;
        const t0 = performance.now();
        pending.push(
          fetch(`${server.url}/ws/1.1/work.post?apikey=${key}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ data: work() }),
          }).then(async (res) => {
            await res.arrayBuffer();
            posts.push(performance.now() - t0);
            if (res.status !== 200) failures++;
          }),
        );
      }
      await Promise.all(pending);
    };
    await Promise.all([...Array.from({ length: GET_CLIENTS }, getter), poster()]);
    return { get: percentiles(gets), post: percentiles(posts), failures };
  }

  console.error(`baseline: ${baselineSeconds} s without an import…`);
  const baseline = await load(new Promise((r) => setTimeout(r, baselineSeconds * 1000)));

  const imports: { nice: number; seconds: number; finished: boolean; during: Awaited<ReturnType<typeof load>> }[] = [];
  for (const [i, nice] of nices.entries()) {
    console.error(`importing ${importTracks} tracks at nice ${nice} while serving (at most ${maxSeconds} s)…`);
    const started = performance.now();
    const args = [path.join(ROOT, 'bin/refrain.js'), 'import', importFileOf[i], '--data', data, '--no-index', '--json', '--nice', String(nice)];
    const importer = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    stops.push(() => importer.kill());
    const exited = once(importer, 'exit');
    const limit = new Promise((r) => setTimeout(r, maxSeconds * 1000).unref());
    const during = await load(Promise.race([exited, limit]));
    const seconds = (performance.now() - started) / 1000;
    const finished = importer.exitCode !== null;
    importer.kill();
    await (finished ? undefined : exited);
    imports.push({ nice, seconds, finished, during });
  }

  const row = (name: string, r: Awaited<ReturnType<typeof load>>) =>
    `| ${name} | ${r.get.count} | ${r.get.p50.toFixed(2)} | ${r.get.p99.toFixed(2)} | ${r.get.max.toFixed(1)} | ${r.post.count} | ${r.post.p50.toFixed(1)} | ${r.post.p99.toFixed(1)} | ${r.failures} |`;
  const atDefault = imports.find((r) => r.nice === DEFAULT_NICE);
  const verdict = !atDefault ? 'not measured (no import at the default nice)' : atDefault.during.get.p99 < TARGET_P99_MS ? 'met' : 'NOT met';
  const importState = (r: (typeof imports)[number]) => `nice ${r.nice}: ${r.finished ? `finished in ${r.seconds.toFixed(1)} s` : `stopped after ${maxSeconds} s`}`;
  const markdown = [
    `bench/abuse/writes-during-import — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}`,
    `catalog ${baseTracks} tracks; imports of ${importTracks} generated tracks by \`refrain import\` in another process ` +
      `(${imports.map(importState).join('; ')}); load: ${GET_CLIENTS} track.get clients (closed loop) + ${postsPerSecond} work.post/s`,
    '',
    '| phase | track.get | p50 ms | p99 ms | max ms | work.post | p50 ms | p99 ms | non-200 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('no import', baseline),
    ...imports.map((r) => row(`during an import at nice ${r.nice}${r.nice === DEFAULT_NICE ? ' (default)' : ''}`, r.during)),
    '',
    `target: track.get p99 < ${TARGET_P99_MS} ms during an import at the default priority — ${verdict}`,
  ].join('\n');
  console.log(markdown);
  if (!smoke) writeResult('writes-during-import', markdown, { baseTracks, importTracks, baseline, imports, targetP99Ms: TARGET_P99_MS });
} finally {
  cleanUp();
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}
