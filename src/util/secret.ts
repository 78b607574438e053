/** Secrets kept in the data directory (`<data>/secrets/<name>`, mode 0600), made on first use. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function loadOrCreateSecret(dataDir: string, name: string, bytes = 32): Buffer {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  try {
    return readFileSync(file);
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const secret = randomBytes(bytes);
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return readFileSync(file); // another process made it first
    }
  }
}
