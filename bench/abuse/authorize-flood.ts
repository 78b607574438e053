/**
 * bench/abuse/authorize-flood: how much the data directory grows under unauthenticated
 * `GET /oauth/authorize` calls (issue 11, item 2: 40,000 calls grew the data file 41 → 719 MB
 * when every call stored a session; target < 5 MB).
 *
 *   npm run bench:authorize-flood -- [--calls 40000] [--concurrency 16] [--max-seconds 300] [--bin bin/refrain.js]
 *
 * Starts its own server (`<bin> serve`, a child process) on 127.0.0.1 with an empty temporary data
 * directory and one registered client, makes `--calls` valid authorization requests without a cookie
 * (each a new browser), stops the server (SIGTERM: it commits and closes LMDB), and prints one JSON
 * line: the data directory's size before and after (apparent and allocated bytes), the growth and
 * whether it is under the target (exit code 1 when not). Bounded: at most `--calls` requests and `--max-seconds`; the temp
 * directory is removed at the end. `--bin /work/base/bin/refrain.js` measures another build (the
 * code before the fix) the same way. Smoke run: `--calls 500`.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { benchArgs } from '../lib/args.js';
import { machine, startProcess } from '../lib/measure.js';
import { ROOT } from '../lib/paths.js';

const args = benchArgs({ calls: 40000, concurrency: 16, 'max-seconds': 300, bin: path.join(ROOT, 'bin/refrain.js') });
const { calls, concurrency, 'max-seconds': maxSeconds } = args;
if (!(calls > 0 && calls <= 1_000_000) || !(concurrency > 0 && concurrency <= 256) || !(maxSeconds > 0 && maxSeconds <= 3600)) {
  console.error('--calls 1..1000000, --concurrency 1..256, --max-seconds 1..3600');
  process.exit(2);
}
const TARGET_BYTES = 5 * 2 ** 20;
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** Apparent and allocated bytes of every file under `dir`. */
function dirSize(dir: string): { bytes: number; allocated: number } {
  let bytes = 0;
  let allocated = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const s = statSync(path.join(entry.parentPath, entry.name));
    bytes += s.size;
    allocated += s.blocks * 512;
  }
  return { bytes, allocated };
}

const data = mkdtempSync(path.join(tmpdir(), 'refrain-authorize-flood-'));
try {
  const created = spawnSync(
    process.execPath,
    [args.bin, 'clients', 'create', '--data', data, '--name', 'Flood', '--redirect-uri', REDIRECT_URI, '--json'],
    { encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`clients create failed: ${created.stderr}`);
  const clientId = (JSON.parse(created.stdout) as { client_id: string }).client_id;

  const { child, match } = await startProcess(
    [args.bin, 'serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--index-threads', '1', '--no-feeds'],
    /"port":(\d+).*"msg":"listening"/,
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = Number(match[1]);
  const before = dirSize(data);

  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: concurrency });
  const statuses: Record<number, number> = {};
  const deadline = performance.now() + maxSeconds * 1000;
  const started = performance.now();
  let next = 0;
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (next < calls && performance.now() < deadline) {
      const i = next++;
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        scope: 'openid profile email',
        state: `flood-${i}`,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const res = await pool.request({ method: 'GET', path: `/oauth/authorize?${query}` });
      await res.body.dump();
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      sent++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();

  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(killer);
  const after = dirSize(data);
  const growth = after.bytes - before.bytes;
  console.log(
    JSON.stringify({
      bench: 'authorize-flood',
      bin: args.bin,
      calls: sent,
      seconds: Number(seconds.toFixed(1)),
      rps: Math.round(sent / seconds),
      statuses,
      dataBytesBefore: before.bytes,
      dataBytesAfter: after.bytes,
      growthBytes: growth,
      allocatedGrowthBytes: after.allocated - before.allocated,
      targetBytes: TARGET_BYTES,
      underTarget: growth < TARGET_BYTES,
      machine: machine(),
    }),
  );
  if (growth >= TARGET_BYTES) process.exitCode = 1;
} finally {
  rmSync(data, { recursive: true, force: true });
}
