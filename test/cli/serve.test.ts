/** `refrain serve` as an operator starts it: refusal on the uWS fallback, and the opt-in. */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';
import { tempDir } from '../helpers/tmp.js';
import { startCli } from '../helpers/cli.js';

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
  t.equal(api.headers.get('x-refrain-header-status'), '401', 'the query string is read on the fallback too');
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

t.test('SIGINT prints one line and stops cleanly within a bound (issue 11 #18)', async (t) => {
  const data = tempDir(t);
  const serve = startCli(t, ['serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--no-feeds'], { LOG_LEVEL: 'info' });
  const [, port] = await serve.waitForErr(/Listening on 127\.0\.0\.1:(\d+)/);
  t.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
  const sent = performance.now();
  serve.child.kill('SIGINT');
  const [code, signal] = await serve.exited;
  const ms = performance.now() - sent;
  t.equal(code, 0, 'exit 0 (docs/operations.md)');
  t.equal(signal, null, 'it exits by itself');
  t.ok(ms < 15_000, `stopped in ${Math.round(ms)} ms`);
  const said = serve.err().split('\n').filter((l) => /SIGINT/.test(l));
  t.same(said, ['SIGINT: stopping: no new requests, writing counters, closing the data directory (Ctrl-C again exits at once)']);
  t.notMatch(serve.err(), /^\s+at /m, 'no stack trace');
});

t.test('logs: JSON lines on a pipe, readable lines with --log-format pretty, JSON to --log-file (issue 11 #18)', async (t) => {
  const data = tempDir(t);
  const args = ['serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--no-feeds'];
  const stop = async (s: ReturnType<typeof startCli>) => {
    await s.waitForErr(/Listening on /);
    s.child.kill('SIGTERM');
    t.equal((await s.exited)[0], 0);
  };

  const piped = startCli(t, args, { LOG_LEVEL: 'info', REFRAIN_LOG_FORMAT: '' });
  await stop(piped);
  const lines = piped.out().trim().split('\n');
  const parsed = lines.map((l) => JSON.parse(l) as { msg: string; level: number });
  t.match(parsed.map((l) => l.msg), ['no index yet: building it before listening', 'index built', 'listening'], 'every stdout line is JSON');
  t.notMatch(piped.out(), /Listening on|stopping/, 'human messages stay on stderr');

  const pretty = startCli(t, [...args, '--log-format', 'pretty'], { LOG_LEVEL: 'info' });
  await stop(pretty);
  t.match(pretty.out(), /^\d\d:\d\d:\d\d INFO  listening  port=\d+ url=http:\/\/localhost:\d+ tracks=0 uws=native httpThreads=1 engine=(native|ts)$/m);
  t.notMatch(pretty.out(), /^\{/m, 'no JSON line among them');

  const logFile = path.join(data, 'refrain.log');
  const filed = startCli(t, [...args, '--log-file', logFile], { LOG_LEVEL: 'info' });
  await stop(filed);
  t.equal(filed.out(), '', 'nothing on stdout');
  const logged = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { msg: string });
  t.ok(logged.some((l) => l.msg === 'listening'), 'the JSON logs are in the file');
});

t.test('with two HTTP threads: a stop waits for open connections and exits 0; a second signal ends it by that signal, never an abort', async (t) => {
  const data = tempDir(t);
  const start = async () => {
    const serve = startCli(t, ['serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--no-feeds', '--http-threads', '2'], { LOG_LEVEL: 'info' });
    const [, port] = await serve.waitForErr(/Listening on 127\.0\.0\.1:(\d+)/);
    return { serve, port: Number(port) };
  };
  /** A keep-alive connection that has had an answer and stays open, idle. */
  const idle = async (port: number) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await once(socket, 'data');
    socket.on('error', () => undefined);
    return socket;
  };

  const first = await start();
  const socket = await idle(first.port);
  first.serve.child.kill('SIGTERM');
  // The connection ends: its thread, the last one holding sockets, can exit.
  setTimeout(() => socket.destroy(), 500).unref();
  t.same(await first.serve.exited, [0, null], 'exit 0 once the open connection ended');
  t.notMatch(first.serve.err(), /Assertion failed|open handles|SIGABRT/, 'no abort on the way out');

  const second = await start();
  const held = await idle(second.port);
  t.teardown(() => held.destroy());
  second.serve.child.kill('SIGINT');
  await second.serve.waitForErr(/SIGINT: stopping/);
  second.serve.child.kill('SIGINT');
  t.same(await second.serve.exited, [null, 'SIGINT'], 'the second Ctrl-C ends it at once, by the signal');
  t.notMatch(second.serve.err(), /Assertion failed|open handles/, 'no abort');
});

t.test('--engine: native refuses to start without the addon; auto falls back to ts with one line; /readyz says which answers (issue 17)', async (t) => {
  const data = tempDir(t);
  const off = { ...process.env, REFRAIN_NATIVE: '0' };
  const refused = spawnSync(process.execPath, [BIN, 'serve', '--data', data, '--port', '0', '--engine', 'native', '--no-feeds'], { encoding: 'utf8', env: off, timeout: 60_000 });
  t.equal(refused.status, 1);
  t.match(refused.stderr, /--engine native: the native addon off \(REFRAIN_NATIVE=0\); run npm run build:native, or pass --engine auto \(native when it loads\) or ts/);
  t.notMatch(refused.stdout, /index/, 'refused before any work: no index was built');

  const bad = spawnSync(process.execPath, [BIN, 'serve', '--data', data, '--engine', 'fast'], { encoding: 'utf8', timeout: 60_000 });
  t.equal(bad.status, 2, 'an unknown engine is a usage error');
  t.match(bad.stderr, /engine/);

  const fallback = startCli(t, ['serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--no-feeds'], { REFRAIN_NATIVE: '0' });
  const [, port] = await fallback.waitForErr(/Listening on 127\.0\.0\.1:(\d+)/);
  t.match(fallback.err(), /^native addon off \(REFRAIN_NATIVE=0\): fingerprints answered by the TypeScript kernel and records compressed by the TypeScript code \(slower\)$/m);
  t.equal(((await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { index: { engine: string } }).index.engine, 'ts');
  fallback.child.kill('SIGTERM');
  await fallback.exited;

  if (process.env.REFRAIN_NATIVE === '0') return;
  const chosen = startCli(t, ['serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--no-feeds', '--engine', 'ts'], {});
  const [, tsPort] = await chosen.waitForErr(/Listening on 127\.0\.0\.1:(\d+)/);
  t.notMatch(chosen.err(), /native addon/, 'choosing ts is no fallback: no warning');
  t.equal(((await (await fetch(`http://127.0.0.1:${tsPort}/readyz`)).json()) as { index: { engine: string } }).index.engine, 'ts');
  chosen.child.kill('SIGTERM');
  await chosen.exited;
});
