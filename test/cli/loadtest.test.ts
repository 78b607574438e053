/** `refrain loadtest` as an operator runs it: a short run writing its JSON and HTML report, and the refusals. */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generateCatalog } from '../../src/generate/index.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { BIN, execCli, runCli } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

t.test('a short run: summary on stderr with --json, the report as JSON on stdout, the HTML file', async (t) => {
  const records = [...generateCatalog({ tracks: 300, seed: 9 }).lines].map((line) => JSON.parse(line) as unknown);
  const api = await startTestServer(t, { records });
  const html = path.join(tempDir(t), 'report.html');
  const run = await execCli(['loadtest', '--target', api.url, '--apikey', api.keys.enterprise, '--duration', '2', '--rate', '30', '--discover-tracks', '100', '--discover-lyrics', '20', '--json', '--html', html]);
  t.equal(run.code, 0, run.err);
  const report = JSON.parse(run.out) as { overall: { requests: number }; methods: { method: string }[] };
  t.equal(report.overall.requests, 60);
  t.equal(report.methods.length, 4);
  t.match(run.err, /refrain loadtest → http:\/\/127\.0\.0\.1:\d+ — open loop at 30 req\/s/);
  t.match(run.err, new RegExp(`report: ${html.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  t.ok(existsSync(html));
  t.match(readFileSync(html, 'utf8'), /<h2>Latency distribution<\/h2>/);
});

t.test('Ctrl-C ends the run early with its report', async (t) => {
  const records = [...generateCatalog({ tracks: 200, seed: 9 }).lines].map((line) => JSON.parse(line) as unknown);
  const api = await startTestServer(t, { records });
  const child = spawn(process.execPath, [BIN, 'loadtest', '--target', api.url, '--apikey', api.keys.enterprise, '--duration', '60', '--rate', '20', '--mix', 'track.get=1', '--html', ''], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  child.kill('SIGINT');
  const [code] = (await once(child, 'exit')) as [number];
  t.equal(code, 0, err);
  t.match(out, /^refrain loadtest → .* open loop at 20 req\/s/);
  t.match(out, /warning: stopped by the operator after/);
});

t.test('refusals: a target elsewhere, no credentials, a bad mix, nothing listening', async (t) => {
  const remote = runCli(['loadtest', '--target', 'http://192.0.2.1:8080', '--apikey', 'k']);
  t.equal(remote.code, 2);
  t.match(remote.err, /^refrain loadtest: --target: 192\.0\.2\.1 is not this machine .*--i-own-this-target\n/);
  const noKey = runCli(['loadtest', '--target', 'http://127.0.0.1:9']);
  t.equal(noKey.code, 2);
  t.match(noKey.err, /give --apikey KEY or --bearer TOKEN/);
  const mix = runCli(['loadtest', '--target', 'http://127.0.0.1:9', '--apikey', 'k', '--mix', 'track.dance=1']);
  t.equal(mix.code, 2);
  t.match(mix.err, /--mix: unknown method "track\.dance"/);
  const slo = runCli(['loadtest', '--target', 'http://127.0.0.1:9', '--apikey', 'k', '--slo', 'fast']);
  t.equal(slo.code, 2);
  t.match(slo.err, /--slo: a latency such as 20ms, 20 or 0\.5s/);
  const down = runCli(['loadtest', '--target', 'http://127.0.0.1:9', '--apikey', 'k', '--html', '']);
  t.equal(down.code, 1);
  t.match(down.err, /^refrain loadtest: GET \/ws\/1\.1\/chart\.tracks\.get: ECONNREFUSED — is the target up\?\n$/);
});
