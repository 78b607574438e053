/**
 * bench/abuse/key-flood: how much memory a flood of distinct unknown API keys costs the server
 * (issue 11, item 4: 3,000 distinct 60 KB keys added 196 MB to the key cache).
 *
 *   npm run bench:key-flood -- [--keys 3000] [--key-bytes 61440] [--connections 8] [--max-seconds 120]
 *                              [--bin bin/refrain.js] [--smoke]
 *
 * Starts `refrain serve` (the built bin, or `--bin` another build, e.g. /work/base/bin/refrain.js
 * for the code before the fix) on 127.0.0.1 with an empty temporary data directory, then sends two
 * floods of track.get requests, each with a distinct key, and reads the server's RSS from /proc:
 *   - long: `--keys` keys of `--key-bytes` characters (cannot be keys: refused unread now);
 *   - shaped: 10 × `--keys` well-formed unknown keys (32 hex characters: cached, within
 *     --unknown-key-cache-bytes).
 * Every answer should be 401 (the statuses are printed). On builds with `--max-url-bytes` it is
 * raised to twice `--key-bytes`, so long keys reach the key check instead of a 414. Stops after
 * `--max-seconds` whatever is left; `--smoke` sends 200 keys.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { benchArgs } from '../lib/args.js';
import { startProcess } from '../lib/measure.js';
import { ROOT } from '../lib/paths.js';

const args = benchArgs({
  keys: 3000,
  'key-bytes': 60 * 1024,
  connections: 8,
  'max-seconds': 120,
  bin: path.join(ROOT, 'bin/refrain.js'),
  smoke: false,
});
const keys = args.smoke ? 200 : args.keys;
const keyBytes = args['key-bytes'];
const connections = args.connections;
const deadline = Date.now() + args['max-seconds'] * 1000;

const rssMb = (pid: number): number => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : NaN;
};

/** Send `count` requests, each with the key `make(i)`, over `connections` parallel loops; count the statuses. */
async function flood(url: string, count: number, make: (i: number) => string): Promise<{ sent: number; statuses: Record<number, number>; seconds: number }> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const t0 = performance.now();
  const loop = async () => {
    while (next < count && Date.now() < deadline) {
      const i = next++;
      try {
        const res = await request(`${url}/ws/1.1/track.get?track_id=1&apikey=${make(i)}`);
        await res.body.dump();
        // The envelope's status: /ws/1.1/ answers HTTP 200 by default (docs/api.md); older builds mirror it.
        const status = Number(res.headers['x-refrain-header-status'] ?? res.statusCode);
        statuses[status] = (statuses[status] ?? 0) + 1;
      } catch {
        statuses[0] = (statuses[0] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  return { sent: Object.values(statuses).reduce((a, b) => a + b, 0), statuses, seconds: (performance.now() - t0) / 1000 };
}

const data = mkdtempSync(path.join(os.tmpdir(), 'refrain-key-flood-'));
// A build with a URL limit (--max-url-bytes, 8 KB by default) answers a 60 KB key 414 before the
// guard sees it; the limit is raised here so the flood measures the key path itself.
const help = spawnSync(process.execPath, [args.bin, 'serve', '--help'], { encoding: 'utf8' }).stdout;
const urlLimit = help.includes('--max-url-bytes') ? ['--max-url-bytes', String(Math.max(8192, keyBytes * 2))] : [];
const server = await startProcess(
  [args.bin, 'serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--log-level', 'info', '--no-feeds', '--index-threads', '1', ...urlLimit],
  /"port":(\d+).*"msg":"listening"/,
);
const pid = server.child.pid!;
const url = `http://127.0.0.1:${server.match[1]}`;
try {
  // Warm up the request path so its first allocations are not counted as the flood's.
  await flood(url, 200, () => randomBytes(16).toString('hex'));
  const settle = () => new Promise((r) => setTimeout(r, 1000));
  await settle();
  const base = rssMb(pid);
  const prefix = randomBytes(8).toString('hex');
  const long = await flood(url, keys, (i) => `${prefix}${i.toString(36)}`.padEnd(keyBytes, 'x'));
  await settle();
  const afterLong = rssMb(pid);
  const shaped = await flood(url, keys * 10, () => randomBytes(16).toString('hex'));
  await settle();
  const afterShaped = rssMb(pid);
  const result = {
    bin: args.bin,
    keys,
    keyBytes,
    rssMb: { base: +base.toFixed(1), afterLong: +afterLong.toFixed(1), afterShaped: +afterShaped.toFixed(1) },
    long: { ...long, rssGrowthMb: +(afterLong - base).toFixed(1) },
    shaped: { ...shaped, rssGrowthMb: +(afterShaped - afterLong).toFixed(1) },
  };
  console.log(JSON.stringify(result));
  console.error(
    `${keys} distinct ${keyBytes}-character keys: RSS +${result.long.rssGrowthMb} MB (${JSON.stringify(long.statuses)}, ${long.seconds.toFixed(1)} s); ` +
      `${shaped.sent} distinct well-formed unknown keys: RSS +${result.shaped.rssGrowthMb} MB (${JSON.stringify(shaped.statuses)})`,
  );
  if (long.sent < keys || shaped.sent < keys * 10) console.error(`stopped at --max-seconds before every key was sent`);
} finally {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(data, { recursive: true, force: true });
}
