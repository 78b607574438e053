/**
 * bench/http: throughput and latency of id lookups over keep-alive HTTP, next to a bare uWS app
 * measured in the same run on the same machine (DESIGN.md §8: target ≥ 50% of the bare app).
 *
 *   npm run bench:http -- [--tracks 100000] [--data DIR] [--seconds 10] [--connections 50]
 *
 * The catalog is generated and imported on first use (kept in bench/.data/). wrk (one thread) is
 * the load generator and shares the 2 cores with the server; requests rotate over 2,000 random
 * track ids. CPU per request is the server process's user+system time over the run / requests.
 */
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { KeyStore } from '../../src/auth/keys.js';
import { writeCatalog } from '../../src/cli/commands.js';
import { cpuSeconds, machine, startProcess, wrk, wrkVersion, type WrkResult } from '../lib/measure.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    tracks: { type: 'string', default: '100000' },
    data: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
const tracks = Number(values.tracks);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const data = values.data ?? path.join(ROOT, 'bench/.data', `catalog-${tracks}`);

async function prepare(): Promise<{ key: string; ids: number[] }> {
  mkdirSync(data, { recursive: true });
  const catalog = Catalog.open(data);
  try {
    if (catalog.trackCount() === 0) {
      const file = path.join(data, 'catalog.jsonl.gz');
      if (!existsSync(file)) {
        console.error(`generating ${tracks} tracks…`);
        await writeCatalog({ tracks, seed: 7 }, file);
      }
      console.error('importing…');
      const report = await importFiles(catalog, [file], { batch: 5000 });
      console.error(`imported ${report.imported} records at ${report.tracksPerSecond} tracks/s`);
    }
    const all = [...catalog.trackIds()].filter((id) => catalog.getTrack(id)?.has_lyrics);
    const ids = Array.from({ length: 2000 }, (_, i) => all[Math.floor(((i * 2654435761) % 2 ** 32) / 2 ** 32 * all.length)]);
    const key = new KeyStore(catalog.root).create({ plan: 'enterprise', quota: 0, label: 'bench/http' }).key;
    return { key, ids };
  } finally {
    await catalog.close();
  }
}

function luaScript(file: string, paths: string[]): string {
  const lua = `local paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
`;
  writeFileSync(file, lua);
  return file;
}

interface Row extends WrkResult {
  name: string;
  cpuUsPerRequest: number;
}

async function measure(name: string, pid: number, url: string, script?: string): Promise<Row> {
  wrk(url, { seconds: 2, connections, script }); // warm-up: JIT, page cache
  const cpu0 = cpuSeconds(pid);
  const r = wrk(url, { seconds, connections, script });
  const cpu = cpuSeconds(pid) - cpu0;
  if (r.non2xx || r.errors) console.error(`${name}: ${r.non2xx} non-2xx, ${r.errors} socket errors`);
  return { name, ...r, cpuUsPerRequest: (cpu / Math.max(r.requests, 1)) * 1e6 };
}

const { key, ids } = await prepare();
const tmp = path.join(data, 'wrk');
mkdirSync(tmp, { recursive: true });
const rows: Row[] = [];

const bare = await startProcess([path.join(ROOT, 'dist/bench/http/bare.js')], /^(\d+)$/);
const barePort = Number(bare.match[1]);
rows.push(await measure('bare uWS hello', bare.child.pid!, `http://127.0.0.1:${barePort}/`));
bare.child.kill();

const server = await startProcess(
  [path.join(ROOT, 'bin/refrain.js'), 'serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--log-level', 'info'],
  /"port":(\d+)/,
);
const port = Number(server.match[1]);
for (const method of ['track.get', 'track.lyrics.get']) {
  const script = luaScript(path.join(tmp, `${method}.lua`), ids.map((id) => `/ws/1.1/${method}?track_id=${id}&apikey=${key}`));
  rows.push(await measure(method, server.child.pid!, `http://127.0.0.1:${port}/`, script));
}
server.child.kill('SIGTERM');

const base = rows[0];
const table = [
  `bench/http — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}; ${wrkVersion()}, 1 thread, ${connections} keep-alive connections, ${seconds} s per row; catalog ${tracks.toLocaleString('en')} tracks`,
  '',
  '| endpoint | requests/s | vs bare uWS | p50 ms | p90 ms | p99 ms | server CPU µs/request |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) =>
    `| ${r.name} | ${Math.round(r.rps).toLocaleString('en')} | ${((r.rps / base.rps) * 100).toFixed(0)}% | ${r.p50ms.toFixed(2)} | ${r.p90ms.toFixed(2)} | ${r.p99ms.toFixed(2)} | ${r.cpuUsPerRequest.toFixed(1)} |`,
  ),
].join('\n');
console.log(table);
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(path.join(ROOT, 'bench/results/http.json'), JSON.stringify({ at: new Date().toISOString(), machine: machine(), tracks, connections, seconds, rows }, null, 2));
writeFileSync(path.join(ROOT, 'bench/results/http.md'), `${table}\n`);
