// Builds the native addon (binding.gyp) with node-gyp, as part of `npm ci` (package.json's prepare).
// Offline: Node's own headers (the include/node beside the running node) are passed as --nodedir,
// so node-gyp downloads nothing (without them it does not build). A build that fails leaves Refrain
// on its TypeScript code: it prints the compiler's last lines and one line saying so, and does not
// fail the install (src/util/native.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const prefix = path.dirname(path.dirname(process.execPath));
const nodeGyp = [
  process.env.npm_config_node_gyp,
  path.join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
].find((file) => file && existsSync(file));

function skip(why) {
  console.warn(`refrain: native addon not built (${why}); the TypeScript implementations will answer alone`);
  process.exit(0);
}

if (process.env.REFRAIN_NATIVE === '0') skip('REFRAIN_NATIVE=0');
if (!nodeGyp) skip('node-gyp not found beside npm');
// Without the running Node's headers node-gyp would download them: never, the build is offline.
if (!existsSync(path.join(prefix, 'include', 'node', 'node_api.h'))) skip(`no Node headers in ${path.join(prefix, 'include', 'node')}`);
const args = [nodeGyp, 'rebuild', '--jobs', 'max', `--nodedir=${prefix}`];
const started = Date.now();
const run = spawnSync(process.execPath, args, { cwd: here, encoding: 'utf8', timeout: 300_000 });
if (run.status !== 0) {
  const lines = `${run.stdout ?? ''}${run.stderr ?? ''}`.split('\n').filter((l) => l && !l.startsWith('gyp info'));
  console.warn(lines.slice(-15).join('\n'));
  skip(`node-gyp exited with ${run.status ?? run.signal ?? run.error?.message}`);
}
console.log(`refrain: native addon built in ${((Date.now() - started) / 1000).toFixed(1)} s (native-index/build/Release/refrain_native.node)`);
