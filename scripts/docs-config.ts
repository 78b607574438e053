/**
 * Writes docs/configuration.md from the option table of src/config.ts, so the docs cannot drift
 * from the flags: `npm run docs:config`. A test checks the committed file is current.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { configurationDoc } from '../src/config-doc.js';

const file = path.resolve(import.meta.dirname, '../../docs/configuration.md');
writeFileSync(file, configurationDoc());
console.log(`wrote ${file}`);
