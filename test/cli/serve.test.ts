/** `refrain serve` as an operator starts it: refusal on the uWS fallback, and the opt-in. */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { tempDir } from '../helpers/tmp.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/refrain.js');

t.test('refuses to start on the JavaScript fallback of uWS unless told to', async (t) => {
  const data = tempDir(t);
  const env = { ...process.env, UWS_USE_FALLBACK: '1' };
  const refused = spawnSync(process.execPath, [BIN, 'serve', '--data', data, '--port', '0'], { encoding: 'utf8', env });
  t.equal(refused.status, 1);
  t.match(refused.stderr, /native binary did not load .* refusing to start \(pass --allow-uws-fallback/);

  const child = spawn(process.execPath, [BIN, 'serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--allow-uws-fallback'], { env });
  t.teardown(() => child.kill('SIGKILL'));
  const lines = createInterface({ input: child.stdout });
  // Log lines before it (the first index build) are skipped.
  let log: { msg?: string; uws?: string; port?: number } = {};
  for await (const line of lines) {
    log = JSON.parse(line) as typeof log;
    if (log.msg === 'listening') break;
  }
  t.equal(log.msg, 'listening');
  t.equal(log.uws, 'fallback');
  const health = await fetch(`http://127.0.0.1:${log.port}/healthz`);
  t.equal(health.status, 200);
  const api = await fetch(`http://127.0.0.1:${log.port}/ws/1.1/track.get?track_id=1&apikey=nope`);
  t.equal(api.status, 401, 'the query string is read on the fallback too');
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  t.equal(code, 0, 'SIGTERM stops it cleanly');
});

t.test('a failed listen exits with a message instead of hanging on the index pool', async (t) => {
  const data = tempDir(t);
  // 203.0.113.1 (TEST-NET-3) is no address of this machine: binding it fails.
  const r = spawnSync(process.execPath, [BIN, 'serve', '--data', data, '--port', '0', '--host', '203.0.113.1'], { encoding: 'utf8', timeout: 60_000 });
  t.equal(r.signal, null, 'it exits by itself');
  t.equal(r.status, 1);
  t.match(r.stderr, /cannot listen on 203\.0\.113\.1:0/);
});
