/**
 * What the operator sees when a command goes wrong (issue 11 #17): one line naming the file and the
 * problem, never a stack trace; usage errors exit 2, failures 1, imports with rejected lines 3.
 */
import t, { type Test } from 'tap';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { runCli as run } from '../helpers/cli.js';
import { tempDir, writeJsonl } from '../helpers/tmp.js';
import { FIXTURE_RECORDS } from '../helpers/fixtures.js';

/** stderr is exactly one line and holds no stack frame. */
function oneLine(t: Test, err: string, pattern: RegExp): void {
  t.equal(err.trimEnd().split('\n').length, 1, `one line: ${err}`);
  t.notMatch(err, /^\s+at /m, 'no stack trace');
  t.match(err, pattern);
}

t.test('no command, unknown commands, --version', async (t) => {
  const none = run([]);
  t.equal(none.code, 2, 'no arguments is a usage error');
  t.match(none.err, /^refrain: no command given\n\nusage: refrain <command>/);
  t.equal(none.out, '');

  const dance = run(['dance']);
  t.equal(dance.code, 2);
  t.match(dance.err, /^refrain: unknown command 'dance'\n/);
  t.match(run(['keys', 'dance']).err, /^refrain: unknown command 'keys dance'\n/);

  t.equal(run(['--help']).code, 0, '--help still succeeds');
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const v = run([flag]);
    t.equal(v.code, 0, flag);
    t.equal(v.out, `${pkg.version}\n`);
  }
});

t.test('a corrupt or truncated .gz, a directory or a missing file: one line, exit 1', async (t) => {
  const dir = tempDir(t);
  const data = path.join(dir, 'data');
  const whole = gzipSync(FIXTURE_RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const truncated = path.join(dir, 'truncated.jsonl.gz');
  writeFileSync(truncated, whole.subarray(0, whole.length - 20));
  const corrupt = path.join(dir, 'corrupt.jsonl.gz');
  writeFileSync(corrupt, Buffer.concat([whole.subarray(0, 10), Buffer.alloc(200, 0xff)]));
  const folder = path.join(dir, 'folder');
  mkdirSync(folder);

  const cases: [string, RegExp][] = [
    [truncated, /^refrain import: cannot read \S*truncated\.jsonl\.gz: the gzip data is truncated \(unexpected end of file\)\n$/],
    [corrupt, /^refrain import: cannot read \S*corrupt\.jsonl\.gz: the gzip data is corrupt\n$/],
    [folder, /^refrain import: cannot read \S*folder: a directory, not a catalog file\n$/],
    [path.join(dir, 'missing.jsonl'), /^refrain import: cannot read \S*missing\.jsonl: no such file or directory\n$/],
  ];
  for (const [file, pattern] of cases) {
    const r = run(['import', file, '--data', data, '--no-index']);
    t.equal(r.code, 1, path.basename(file));
    oneLine(t, r.err, pattern);
    const strict = run(['import', file, '--data', data, '--no-index', '--strict']);
    t.equal(strict.code, 1, `${path.basename(file)} --strict`);
    oneLine(t, strict.err, pattern);
  }
});

t.test('generate --out to a path that cannot be written: one line, exit 1', async (t) => {
  const dir = tempDir(t);
  const r = run(['generate', '--tracks', '5', '--out', path.join(dir, 'nonexistent', 'x.jsonl')]);
  t.equal(r.code, 1);
  oneLine(t, r.err, /^refrain generate: cannot write \S*nonexistent\/x\.jsonl: no such file or directory\n$/);
  const onDir = run(['generate', '--tracks', '5', '--out', dir]);
  t.equal(onDir.code, 1);
  oneLine(t, onDir.err, /^refrain generate: cannot write \S+: is a directory, not a file\n$/);
});

t.test('an import with rejected lines exits 3 and says why each was rejected', async (t) => {
  const data = tempDir(t);
  const file = writeJsonl(data, 'c.jsonl', [
    ...FIXTURE_RECORDS,
    { type: 'track', track_name: 'no id', artist_id: 1 },
    { type: 'track', track_id: 'abc', track_name: 'bad id', artist_id: 1 },
  ]);
  const r = run(['import', file, '--data', data, '--no-index']);
  t.equal(r.code, 3);
  t.match(r.out, /2 rejected/);
  t.match(r.out, new RegExp(`c\\.jsonl:${FIXTURE_RECORDS.length + 1}: track_id: missing \\(required\\)`));
  t.match(r.out, new RegExp(`c\\.jsonl:${FIXTURE_RECORDS.length + 2}: track_id: a whole number from 1 to 4294967294`));
  t.notMatch(r.out, /NaN/);
  const json = run(['import', file, '--data', data, '--no-index', '--json']);
  t.equal(json.code, 3, 'with --json too');
  t.equal(JSON.parse(json.out).rejected, 2);
  const clean = run(['import', writeJsonl(data, 'ok.jsonl', FIXTURE_RECORDS), '--data', data, '--no-index']);
  t.equal(clean.code, 0, 'no rejected line: 0');
});

t.test("users create --help describes the user's name", async (t) => {
  const r = run(['users', 'create', '--help']);
  t.equal(r.code, 0);
  t.match(r.out, /--name <value> +the user's display name/);
  t.notMatch(r.out, /OAuth client/);
  t.match(run(['clients', 'create', '--help']).out, /--name <value> +name of the OAuth client/);
});
