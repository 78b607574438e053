// A second build of the addon with AddressSanitizer and UndefinedBehaviorSanitizer (in
// native-index/.sanitize/, apart from the build Refrain uses), and the native kernel's tests run on it:
// any read or write outside a buffer, or undefined behaviour, stops the run with the sanitizer's report.
//
//   npm run native:sanitize [-- test files…]     (default: the kernel's tests; about 2 minutes)
//
// Node itself is not built with the sanitizers: the runtime is preloaded (LD_PRELOAD), leak checks
// are off (Node frees little at exit by design), and so is the new[]/delete check, which lmdb's own
// native code trips (an allocation of its compression buffer freed with the other operator).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const root = path.dirname(here);
const dir = path.join(here, '.sanitize');
const prefix = path.dirname(path.dirname(process.execPath));
const nodeGyp = path.join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
if (!existsSync(nodeGyp)) throw new Error(`node-gyp not found at ${nodeGyp}`);

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir);
for (const entry of ['binding.gyp', 'lz4-dir.cjs', 'src']) cpSync(path.join(here, entry), path.join(dir, entry), { recursive: true });
const flags = '-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1';
const build = spawnSync(process.execPath, [nodeGyp, 'rebuild', '--jobs', 'max', `--nodedir=${prefix}`], {
  cwd: dir,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, CFLAGS: flags, CXXFLAGS: flags, LDFLAGS: '-fsanitize=address,undefined' },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const runtime = (name) => spawnSync('gcc', [`-print-file-name=${name}`], { encoding: 'utf8' }).stdout.trim();
const tests = process.argv.slice(2);
const files = tests.length > 0 ? tests : ['test/index/kernel/engines.test.ts', 'test/index/kernel/coverage.test.ts', 'test/index/fingerprint/votes.test.ts', 'test/util/lz4.test.ts'];
const run = spawnSync(path.join(root, 'node_modules', '.bin', 'tap'), ['-j1', '--disable-coverage', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    LD_PRELOAD: `${runtime('libasan.so')}:${runtime('libubsan.so')}`,
    ASAN_OPTIONS: 'detect_leaks=0:alloc_dealloc_mismatch=0:abort_on_error=1',
    UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
    REFRAIN_NATIVE_ADDON: path.join(dir, 'build', 'Release', 'refrain_native.node'),
  },
});
console.log(run.status === 0 ? 'sanitizers: no error' : `sanitizers: the run failed (exit ${run.status ?? run.signal})`);
process.exit(run.status ?? 1);
