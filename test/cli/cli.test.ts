/**
 * The `refrain` command as a user runs it (bin/refrain.js over the build that `npm test` makes first).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { tempDir, writeJsonl } from '../helpers/tmp.js';
import { FIXTURE_RECORDS } from '../helpers/fixtures.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/refrain.js');
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

t.test('help for every command', async (t) => {
  const top = run(['--help']);
  t.equal(top.code, 0);
  for (const c of ['serve', 'import', 'generate', 'keys create', 'keys list', 'keys revoke']) t.match(top.out, c);
  for (const c of [['serve'], ['import'], ['generate'], ['keys', 'create'], ['keys', 'list'], ['keys', 'revoke']]) {
    const r = run([...c, '--help']);
    t.equal(r.code, 0, c.join(' '));
    t.match(r.out, /--help/);
  }
  const bad = run(['serve', '--port', 'x']);
  t.equal(bad.code, 2);
  t.match(bad.err, /--port \(or PORT\): /);
  t.equal(run(['dance']).code, 2);
});

t.test('keys create|list|revoke with --json', async (t) => {
  const data = tempDir(t);
  const created = run(['keys', 'create', '--plan', 'enterprise', '--country', 'it', '--rate', '60', '--json'], { REFRAIN_DATA: data });
  t.equal(created.code, 0, created.err);
  const key = JSON.parse(created.out);
  t.match(key, { key: /^[0-9a-f]{32}$/, key_id: /^k_/, plan: 'enterprise', country: 'IT', rate: 60, quota: 0, revoked: null });
  t.equal(created.out.trim().split('\n').length, 1, 'exactly one JSON object');
  const list = JSON.parse(run(['keys', 'list', '--json', '--data', data]).out);
  t.equal(list.keys.length, 1);
  t.notOk('key' in list.keys[0], 'the plaintext is never listed');
  const revoked = JSON.parse(run(['keys', 'revoke', key.key_id, '--json', '--data', data]).out);
  t.match(revoked.revoked, /^\d{4}-/);
  const missing = run(['keys', 'revoke', 'k_nope', '--data', data]);
  t.equal(missing.code, 1);
  t.match(missing.err, /no key with id k_nope/);
});

t.test('import and generate', async (t) => {
  const data = tempDir(t);
  const file = writeJsonl(data, 'c.jsonl', [...FIXTURE_RECORDS, '{"type":"track"}']);
  const first = run(['import', file, '--data', data, '--json']);
  t.equal(first.code, 3, 'rejected lines: exit 3 (docs/operations.md)');
  const report = JSON.parse(first.out);
  t.equal(report.rejected, 1);
  t.same(report.rejections[0].line, FIXTURE_RECORDS.length + 1);
  const strict = run(['import', file, '--data', data, '--strict']);
  t.equal(strict.code, 1);
  t.match(strict.err, /c\.jsonl:11: .*strict: nothing was imported/);
  t.equal(run(['import', '--data', data]).code, 2, 'no files');
  t.equal(run(['import', path.join(data, 'missing.jsonl'), '--data', data]).code, 1);

  const out = path.join(data, 'gen.jsonl.gz');
  const gen = run(['generate', '--tracks', '300', '--seed', '5', '--out', out, '--json']);
  t.equal(gen.code, 0, gen.err);
  t.match(JSON.parse(gen.out), { tracks: 300, seed: 5 });
  const imported = JSON.parse(run(['import', out, '--data', data, '--json']).out);
  t.equal(imported.rejected, 0);
  t.ok(imported.imported >= 300);
  const stdout = run(['generate', '--tracks', '5', '--seed', '5']);
  t.equal(stdout.out.trim().split('\n').filter((l) => l.includes('"type":"track"')).length, 5, 'to standard output');
});

t.test('an import says in one line when the native addon is not in use, and nothing when it is', async (t) => {
  const data = tempDir(t);
  const file = writeJsonl(data, 'c.jsonl', FIXTURE_RECORDS);
  const native = run(['import', file, '--data', data, '--no-index']);
  t.equal(native.code, 0, native.err);
  t.notMatch(native.err, /native addon/);
  const without = run(['import', file, '--data', path.join(data, 'second'), '--no-index'], { REFRAIN_NATIVE: '0' });
  t.equal(without.code, 0, without.err);
  t.match(without.err, /^native addon off \(REFRAIN_NATIVE=0\): compressing records with the TypeScript code \(slower writes\)$/m);
});

t.test('import builds the index; index builds only what is missing', async (t) => {
  const data = tempDir(t);
  const file = writeJsonl(data, 'c.jsonl', FIXTURE_RECORDS);
  const imported = JSON.parse(run(['import', file, '--data', data, '--json']).out);
  t.match(imported.index, { built: true, generation: 1, tracks: 6 });
  t.ok(imported.index.lyrics >= 4);
  const again = run(['index', '--data', data, '--json']);
  t.equal(again.code, 0, again.err);
  t.match(JSON.parse(again.out), { built: false, generation: 1 }, 'the current generation covers the catalog');
  const forced = JSON.parse(run(['index', '--data', data, '--force', '--json']).out);
  t.match(forced, { built: true, generation: 2 });
  const text = run(['index', '--data', data]);
  t.match(text.out, /index generation 2 already covers the catalog/);

  const skipped = JSON.parse(run(['import', file, '--data', tempDir(t), '--no-index', '--json']).out);
  t.equal(skipped.index, undefined, '--no-index leaves the index to later');
});
