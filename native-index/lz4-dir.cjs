// Prints the directory of the LZ4 sources binding.gyp compiles: those lmdb ships for its own native
// build (lmdb is one of the project's fixed dependencies, and its package carries them).
const path = require('node:path');
let dir = path.dirname(require.resolve('lmdb'));
while (!require('node:fs').existsSync(path.join(dir, 'dependencies', 'lz4', 'lib', 'lz4.c'))) {
  const up = path.dirname(dir);
  if (up === dir) throw new Error('the LZ4 sources of lmdb were not found');
  dir = up;
}
process.stdout.write(path.join(dir, 'dependencies', 'lz4', 'lib'));
