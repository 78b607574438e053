/**
 * Unfinished index generations (`index/<n>.tmp` of a build that was killed) are removed before each
 * build and at server start, but never while a build holds the build lock (issue 11, item 6); a
 * publish deletes the generations before it (issue 16: one generation on disk, not two).
 */
import t from 'tap';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildIndex, removeStaleGenerations } from '../../../src/index/service/build.js';
import { currentGeneration, indexRoot, loadCurrentGeneration, loadGenerationAsync, superseded } from '../../../src/index/store/layout.js';
import { parseCommand } from '../../../src/config.js';
import { startServer } from '../../../src/app.js';
import { createLogger } from '../../../src/log.js';
import { indexedDataDir } from '../../helpers/indexed.js';

/** What a build killed part-way leaves: a temporary generation with a segment in it. */
function leaveUnfinished(data: string, name: string): string {
  const dir = path.join(indexRoot(data), name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'fp.bin'), Buffer.alloc(4096));
  return dir;
}

t.test('a build removes the unfinished generations of builds that died', async (t) => {
  const data = await indexedDataDir(t);
  const stale = leaveUnfinished(data, '7.tmp');
  const strayCurrent = path.join(indexRoot(data), 'CURRENT.tmp');
  writeFileSync(strayCurrent, '7\n');
  const old = (Date.now() - 120_000) / 1000;
  utimesSync(strayCurrent, old, old); // a publish's CURRENT.tmp lives an instant: this one is stale

  const skipped = await buildIndex(data);
  t.notOk(skipped.built, 'the index was current: no build');
  t.notOk(existsSync(stale), 'removed even when the build is skipped');
  t.notOk(existsSync(path.join(indexRoot(data), 'CURRENT.tmp')), 'a stray CURRENT.tmp too');

  leaveUnfinished(data, '9.tmp');
  const report = await buildIndex(data, { force: true });
  t.equal(report.generation, 2, 'numbered after the last finished generation, not after the dead one');
  t.notOk(existsSync(path.join(indexRoot(data), '9.tmp')), 'removed before the build');
  t.equal(currentGeneration(data), path.join(indexRoot(data), '2'));
});

t.test('not while a live process holds the build lock; at server start otherwise', async (t) => {
  const data = await indexedDataDir(t);
  const stale = leaveUnfinished(data, '4.tmp');
  // A build in progress (here: this very process) holds the lock: its directory is not touched.
  const lockFile = path.join(indexRoot(data), 'build.lock');
  writeFileSync(lockFile, String(process.pid));
  t.same(removeStaleGenerations(data), [], 'nothing removed while the lock is held');
  t.ok(existsSync(stale), 'the directory of the running build is kept');

  // Its holder died: the lock is taken over and the directory removed when the server starts.
  writeFileSync(lockFile, '999999999');
  const { config } = parseCommand('serve', ['--data', data, '--port', '0', '--host', '127.0.0.1', '--index-threads', '1', '--no-feeds'], {});
  const server = await startServer(config, { logger: createLogger('silent') });
  t.teardown(() => server.close());
  t.notOk(existsSync(stale), 'removed at start');
  t.notOk(existsSync(lockFile), 'and the lock released');
  t.equal(server.index.generation, 1, 'the finished generation is served');
});

t.test('an unfinished generation whose builder still runs is kept, even by a builder holding the lock', async (t) => {
  const data = await indexedDataDir(t);
  // What a build in this very process looks like while it writes (layout.ts: newGenerationDir).
  const running = leaveUnfinished(data, '5.tmp');
  writeFileSync(path.join(running, '.builder'), String(process.pid));
  const dead = leaveUnfinished(data, '6.tmp');
  writeFileSync(path.join(dead, '.builder'), '999999999');
  const fresh = path.join(indexRoot(data), 'CURRENT.tmp');
  writeFileSync(fresh, '1\n');
  t.same(removeStaleGenerations(data), ['6.tmp'], 'only the dead builder\'s directory');
  t.ok(existsSync(running), 'the live build keeps its directory');
  t.ok(existsSync(fresh), 'a CURRENT.tmp being published is left alone');
});

t.test('a publish deletes every older generation; a load that loses its generation to a publish loads the new one', async (t) => {
  const data = await indexedDataDir(t);
  const first = currentGeneration(data)!;
  const second = await buildIndex(data, { force: true });
  t.equal(second.generation, 2);
  t.notOk(existsSync(first), 'the previous generation is gone once the next is published');
  t.same(readdirSync(indexRoot(data)).filter((n) => /^\d+$/.test(n)), ['2'], 'one generation on disk');

  // A reader that took CURRENT just before a publish: its generation vanishes under it.
  const stale = currentGeneration(data)!;
  await buildIndex(data, { force: true });
  t.ok(superseded(stale, data), 'the old one is superseded');
  await t.rejects(loadGenerationAsync(stale), 'loading it fails');
  const loaded = await loadCurrentGeneration(data);
  t.equal(loaded?.dir, path.join(indexRoot(data), '3'), 'loading the current one finds the newest');
  t.notOk(superseded(loaded!.dir, data), 'which is not superseded');
});
