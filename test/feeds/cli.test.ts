/**
 * `refrain feeds build|list|prune` and `refrain sync` as an operator runs them (bin/refrain.js over
 * the build `npm test` makes first), against a server running meanwhile.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startTestServer } from '../helpers/server.js';
import { execCli as run } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/refrain.js');


t.test('feeds build, list and sync from the command line', async (t) => {
  const s = await startTestServer(t, { flags: ['--no-feeds'] });
  const data = ['--data', s.data];

  const none = await run(['feeds', 'build', ...data]);
  t.equal(none.code, 2, 'neither --full nor --incremental');
  t.match(none.err, /--full or --incremental/);
  const early = await run(['feeds', 'build', '--incremental', ...data]);
  t.equal(early.code, 1);
  t.match(early.err, /no feed yet: an incremental feed follows a full one/);

  const built = await run(['feeds', 'build', '--full', '--json', ...data]);
  t.equal(built.code, 0, built.err);
  t.match(JSON.parse(built.out), { feed: { id: 1, full: true, records: 10, sha256: /^[0-9a-f]{64}$/ }, pruned: [] });
  t.match((await run(['feeds', 'list', ...data])).out, /^ +1 {2}\S+Z {2}full .* 10 records .* feed-000001-full\.jsonl\.gz$/m);
  const listing = await s.get('/ws/1.1/tracks.dump.get', { apikey: s.keys.enterprise });
  t.match(listing.json.message.body, [{ id: 1, full: true }], 'the running server lists what the command built');

  const replica = tempDir(t);
  const refused = await run(['sync', '--from', s.url, '--apikey', s.keys.free, '--data', replica]);
  t.equal(refused.code, 1);
  t.match(refused.err, /refused tracks\.dump\.get: 403 Forbidden/);
  t.equal((await run(['sync', '--from', s.url, '--data', replica])).code, 2, 'credentials are required');

  const synced = await run(['sync', '--from', s.url, '--apikey', s.keys.enterprise, '--data', replica, '--json']);
  t.equal(synced.code, 0, synced.err);
  const report = JSON.parse(synced.out);
  t.match(report, { applied: [{ id: 1, full: true, imported: 10 }], full: 1, last: 1, index: { built: true } }, 'applied and indexed');

  // --every keeps going until stopped.
  const child = spawn(process.execPath, [BIN, 'sync', '--from', s.url, '--apikey', s.keys.enterprise, '--data', replica, '--every', '1h', '--json']);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  t.match(JSON.parse(line), { applied: [], full: 1, last: 1 }, 'up to date');
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number];
  t.equal(code, 0, 'stops cleanly on SIGTERM');
});
