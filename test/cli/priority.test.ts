/**
 * Batch commands lower their own CPU priority (src/util/priority.ts), so an import or a sync started
 * beside a server takes the cores the server leaves idle. The nice value is read from field 19 of
 * /proc/<pid>/stat while the command runs.
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CORPUS_DIR, tempDir } from '../helpers/tmp.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/refrain.js');
const niceOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
const linuxOnly = { skip: process.platform !== 'linux' && 'reads /proc' };

t.test('sync asks its primary at --nice, 10 by default', linuxOnly, async (t) => {
  // A primary that answers nothing useful: it only records the caller's nice value when asked.
  let child: ReturnType<typeof spawn> | undefined;
  const seen: number[] = [];
  const primary = createServer((req, res) => {
    if (child?.pid) seen.push(niceOf(child.pid));
    res.writeHead(503).end();
  });
  primary.listen(0, '127.0.0.1');
  await once(primary, 'listening');
  t.teardown(() => primary.close());
  const from = `http://127.0.0.1:${(primary.address() as AddressInfo).port}`;
  for (const [args, expected] of [[[], 10], [['--nice', '17'], 17]] as const) {
    seen.length = 0;
    child = spawn(process.execPath, [BIN, 'sync', '--from', from, '--apikey', 'a'.repeat(32), '--data', tempDir(t), '--json', ...args], { stdio: 'ignore' });
    const [code] = await once(child, 'exit');
    t.not(code, 0, 'a primary answering 503 fails the sync');
    t.ok(seen.length > 0, 'the primary was asked');
    t.same(new Set(seen), new Set([expected]), `nice ${expected} with ${args.join(' ') || 'no flag'}`);
  }
});

t.test('import runs at nice 10 by default', linuxOnly, async (t) => {
  const child = spawn(process.execPath, [BIN, 'import', path.join(CORPUS_DIR, 'en.jsonl.gz'), '--data', tempDir(t), '--no-index', '--json'], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  const seen = new Set<number>();
  while (child.exitCode === null) {
    try {
      seen.add(niceOf(child.pid!));
    } catch {
      break; // exited between the check and the read
    }
    await sleep(5);
  }
  t.equal((await exited)[0], 0);
  t.ok(seen.has(10), `seen at nice ${[...seen].join(', ')}`);
});

t.test('--nice out of range is a usage error', async (t) => {
  const r = spawnSync(process.execPath, [BIN, 'index', '--nice', '20'], { encoding: 'utf8' });
  t.equal(r.status, 2);
  t.match(r.stderr, /--nice \(or REFRAIN_NICE\)/);
});
