#!/usr/bin/env node
// Entry point of the `refrain` command: the TypeScript sources are compiled to dist/ by `npm ci`
// (the package's `prepare` script), so this file only loads the compiled CLI.
import '../dist/src/cli/main.js';
