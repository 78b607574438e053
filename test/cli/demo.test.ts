/**
 * `refrain serve --demo` as a new user starts it (issue 11 #14, #15): loopback only unless --host
 * says otherwise, and a working key printed on every start.
 */
import t from 'tap';
import { networkInterfaces } from 'node:os';
import { startCli, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const DEMO = ['serve', '--demo', '--demo-tracks', '100', '--port', '0', '--no-feeds'];
// HOST would count as the operator's choice of address.
const ENV = { HOST: '', LOG_LEVEL: 'warn' };

/** The first address of this machine that is not loopback, if it has one. */
function outsideAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

t.test('--demo listens on 127.0.0.1 only and says so; --host overrides it', async (t) => {
  const data = tempDir(t);
  const demo = startCli(t, [...DEMO, '--data', data, '--progress'], ENV);
  const [, port] = await demo.waitForErr(/Listening on 127\.0\.0\.1:(\d+) only: other machines cannot connect \(pass --host 0\.0\.0\.0/);
  await demo.waitForErr(/API description: /);
  // Each step of the demo's preparation draws its bar to the end (issue 11 #18).
  t.match(demo.err(), /\rgenerating █{30} 100%  100\/100 \(/);
  t.match(demo.err(), /\rimporting █{30} 100%  100 \(/);
  t.match(demo.err(), /\rindexing █{30} 100%  100\/100 \(/);
  t.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
  const outside = outsideAddress();
  if (outside) await t.rejects(fetch(`http://${outside}:${port}/healthz`), 'not reachable on another interface');
  demo.child.kill('SIGTERM');
  t.equal((await demo.exited)[0], 0);

  const open = startCli(t, [...DEMO, '--data', data, '--host', '0.0.0.0'], ENV);
  const [, openPort] = await open.waitForErr(/Listening on 0\.0\.0\.0:(\d+) \(every interface\): the demo key is unlimited/);
  if (outside) t.equal((await fetch(`http://${outside}:${openPort}/healthz`)).status, 200, 'reachable when asked');
  open.child.kill('SIGTERM');
  t.equal((await open.exited)[0], 0);
});

t.test('serve without --demo keeps listening on every interface by default', async (t) => {
  const data = tempDir(t);
  const serve = startCli(t, ['serve', '--data', data, '--port', '0', '--no-feeds'], ENV);
  await serve.waitForErr(/Listening on 0\.0\.0\.0:\d+ \(every interface\)\.\n/);
  serve.child.kill('SIGTERM');
  t.equal((await serve.exited)[0], 0);
  t.equal(runCli(['keys', 'list', '--data', data]).out.trim(), 'no keys', 'and makes no key');
});

t.test('a revoked or lost demo key is replaced by a new one, which is printed', async (t) => {
  const data = tempDir(t);
  const keyOf = (err: string) => /track\.lyrics\.get\?track_id=\d+&apikey=([0-9a-f]+)'/.exec(err)?.[1];
  const first = startCli(t, [...DEMO, '--data', data], ENV);
  await first.waitForErr(/API description: /);
  first.child.kill('SIGTERM');
  await first.exited;
  const oldKey = keyOf(first.err());
  t.ok(oldKey, 'the first start prints a key');

  const [demoKey] = JSON.parse(runCli(['keys', 'list', '--json', '--data', data]).out).keys as { key_id: string }[];
  t.equal(runCli(['keys', 'revoke', demoKey.key_id, '--data', data]).code, 0);

  const second = startCli(t, [...DEMO, '--data', data], ENV);
  const [, port] = await second.waitForErr(/Listening on 127\.0\.0\.1:(\d+)/);
  await second.waitForErr(/API description: /);
  t.match(second.err(), /the saved demo key is revoked or unknown to this data directory: making a new one/);
  const newKey = keyOf(second.err());
  t.ok(newKey);
  t.not(newKey, oldKey, 'a new key is printed');
  const ask = (key: string) => fetch(`http://127.0.0.1:${port}/ws/1.1/chart.tracks.get?page_size=1&apikey=${key}`);
  t.equal((await ask(newKey!)).headers.get('x-refrain-header-status'), '200', 'the printed key works');
  t.equal((await ask(oldKey!)).headers.get('x-refrain-header-status'), '401', 'the revoked one does not');
  second.child.kill('SIGTERM');
  await second.exited;

  // Without --demo, a dead saved key is not printed (and no key is made).
  t.equal(runCli(['keys', 'revoke', (JSON.parse(runCli(['keys', 'list', '--json', '--data', data]).out).keys as { key_id: string; revoked: string | null }[]).find((k) => !k.revoked)!.key_id, '--data', data]).code, 0);
  const plain = startCli(t, ['serve', '--data', data, '--port', '0', '--no-feeds'], ENV);
  await plain.waitForErr(/Listening on /);
  plain.child.kill('SIGTERM');
  await plain.exited;
  t.notMatch(plain.err(), /apikey=/, 'no dead key is shown');
});
