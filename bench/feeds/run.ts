/**
 * bench/feeds: how long a full feed of a large catalog takes to build and how big it is, and how
 * long a replica (an empty data directory) takes to download, check and apply it — the path of
 * `refrain sync` (src/feeds/sync.ts) without the listing call.
 *
 *   npm run bench:feeds -- [--tracks 1000000] [--seed 7] [--levels 4] [--index] [--keep]
 *
 * The catalog is bench/.data/catalog-<tracks> when bench/import made one, else it is generated and
 * imported there first. The feed is written to bench/.data/feeds-<tracks>/ (the catalog's own feeds
 * directory and feed list stay untouched); `--levels 1,4,6` builds it once per gzip level to compare.
 * The replica is bench/.data/feeds-replica-<tracks>/, made afresh; `--index` also times its index build.
 * Both are deleted at the end (several GiB at 1M tracks) unless `--keep`.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { open as openLmdb } from 'lmdb';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { GZIP_LEVEL, writeFeed } from '../../src/feeds/build.js';
import { checkFeed, downloadFeed } from '../../src/feeds/fetch.js';
import { feedDownloadRoute } from '../../src/feeds/download-route.js';
import { FeedSigner } from '../../src/feeds/sign.js';
import { FeedStore, type FeedMeta } from '../../src/feeds/store.js';
import { uws, type us_listen_socket } from '../../src/http/uws.js';
import { buildIndex } from '../../src/index/service/build.js';
import { createLogger } from '../../src/log.js';
import { benchArgs } from '../lib/args.js';
import { makeCatalogIfMissing } from '../lib/catalog.js';
import { machine } from '../lib/measure.js';
import { DATA_DIR, writeResult } from '../lib/paths.js';

const args = benchArgs({ tracks: 1000000, seed: 7, levels: [GZIP_LEVEL], index: false, keep: false });
const { tracks, levels } = args;
const catalogDir = path.join(DATA_DIR, `catalog-${tracks}`);
const outDir = path.join(DATA_DIR, `feeds-${tracks}`);
const replicaDir = path.join(DATA_DIR, `feeds-replica-${tracks}`);
const GiB = 2 ** 30;
const MiB = 2 ** 20;

/** Wall and CPU seconds of a step (CPU of the whole process: the gzip threads count). */
async function timed<T>(step: () => Promise<T>): Promise<{ value: T; seconds: number; cpuSeconds: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await step();
  const used = process.cpuUsage(cpu);
  return { value, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

await makeCatalogIfMissing(catalogDir, { tracks, seed: args.seed, file: path.join(DATA_DIR, `generated-${tracks}.jsonl`) });

rmSync(outDir, { recursive: true, force: true });
const catalog = Catalog.open(catalogDir);
const catalogTracks = catalog.trackCount();
const builds: { level: number; seconds: number; cpuSeconds: number; bytes: number; records: number; meta: FeedMeta }[] = [];
for (const level of levels) {
  const { value: meta, seconds, cpuSeconds } = await timed(async () => (await writeFeed(catalogDir, catalog, { kind: 'full', now: Date.now() }, { dir: outDir, gzipLevel: level }))!);
  builds.push({ level, seconds, cpuSeconds, bytes: meta.bytes, records: meta.records, meta });
  console.error(`full feed at gzip level ${level}: ${seconds.toFixed(1)} s, ${(meta.bytes / MiB).toFixed(1)} MiB`);
  if (level !== levels.at(-1)) rmSync(path.join(outDir, meta.file));
}
await catalog.close();
const feed = builds.at(-1)!.meta;

// The replica's side: the download route of a bare uWS app (the server's own route) and the sync code.
const metaEnv = openLmdb({ path: path.join(outDir, 'meta'), maxDbs: 4 });
const store = new FeedStore(metaEnv);
await store.add(feed);
const signer = new FeedSigner(randomBytes(32));
const app = uws.App();
app.get('/feeds/:file', feedDownloadRoute({ dir: outDir, store, signer, clock: Date.now, logger: createLogger('silent') }));
const socket = await new Promise<us_listen_socket>((resolve) => app.listen('127.0.0.1', 0, resolve));
const port = uws.us_socket_local_port(socket);
const entry = { id: feed.id, created: feed.created, full: true, download_url: signer.url(`http://127.0.0.1:${port}`, `/feeds/${feed.file}`, Date.now(), 86_400) };

rmSync(replicaDir, { recursive: true, force: true });
mkdirSync(path.join(replicaDir, 'sync'), { recursive: true });
const download = await timed(() => downloadFeed(entry, path.join(replicaDir, 'sync')));
uws.us_listen_socket_close(socket);
await metaEnv.close();
const check = await timed(() => checkFeed(download.value.file, entry));
const replica = Catalog.open(replicaDir);
const apply = await timed(() => importFiles(replica, [download.value.file], { batch: 5000 }));
const replicaTracks = replica.trackCount();
await replica.close();
rmSync(download.value.file);
const index = args.index ? await timed(() => buildIndex(replicaDir)) : undefined;
const replicaBytes = Number(spawnSync('du', ['-sb', replicaDir], { encoding: 'utf8' }).stdout.split('\t')[0]);
const feedBytes = statSync(path.join(outDir, feed.file)).size;

const result = {
  at: new Date().toISOString(),
  machine: machine(),
  tracks: catalogTracks,
  builds: builds.map(({ meta: _m, ...b }) => ({ ...b, bytesPerTrack: Math.round(b.bytes / catalogTracks), tracksPerSecond: Math.round(catalogTracks / b.seconds) })),
  replica: {
    download: { seconds: download.seconds, bytes: download.value.bytes, mibPerSecond: download.value.bytes / MiB / download.seconds },
    check: { seconds: check.seconds, lines: check.value.lines },
    import: { seconds: apply.seconds, cpuSeconds: apply.cpuSeconds, tracksPerSecond: apply.value.tracksPerSecond, rejected: apply.value.rejected },
    index: index && { seconds: index.seconds, generation: index.value.generation },
    tracks: replicaTracks,
    dataDirBytes: replicaBytes,
  },
  peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
};
const fmt = (s: number) => `${s.toFixed(s < 10 ? 1 : 0)} s`;
const size = (bytes: number) => (bytes >= GiB ? `${(bytes / GiB).toFixed(2)} GiB` : `${(bytes / MiB).toFixed(1)} MiB`);
const table = [
  `bench/feeds — ${result.at.slice(0, 16)}Z — ${result.machine}; catalog of ${catalogTracks.toLocaleString('en')} tracks (bench/.data/catalog-${tracks})`,
  '',
  '| step | time | CPU | rate | size |',
  '|---|---:|---:|---:|---:|',
  ...result.builds.map((b) =>
    `| build the full feed (gzip level ${b.level}) | ${fmt(b.seconds)} | ${fmt(b.cpuSeconds)} | ${b.tracksPerSecond.toLocaleString('en')} tracks/s | ${size(b.bytes)} (${b.bytesPerTrack.toLocaleString('en')} B/track, ${b.records.toLocaleString('en')} records) |`),
  `| replica: download over HTTP (loopback) with SHA-256 | ${fmt(download.seconds)} | ${fmt(download.cpuSeconds)} | ${result.replica.download.mibPerSecond.toFixed(0)} MiB/s | ${size(feedBytes)} |`,
  `| replica: integrity pass (gunzip, ids) | ${fmt(check.seconds)} | ${fmt(check.cpuSeconds)} | | ${check.value.lines.toLocaleString('en')} lines |`,
  `| replica: import into an empty data dir | ${fmt(apply.seconds)} | ${fmt(apply.cpuSeconds)} | ${apply.value.tracksPerSecond.toLocaleString('en')} tracks/s | ${size(replicaBytes)} data dir |`,
  ...(index ? [`| replica: index build | ${fmt(index.seconds)} | ${fmt(index.cpuSeconds)} | | |`] : []),
  '',
  `Feed built in-process as \`refrain feeds build --full\` does (serve runs the same code in a worker thread); CPU counts every thread of the process (gzip runs on libuv's pool). Peak RSS ${result.peakRssMiB} MiB (LMDB's mapped pages included).`,
].join('\n');
console.log(table);
writeResult('feeds', table, result);
if (!args.keep) {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(replicaDir, { recursive: true, force: true });
}
