/**
 * Running the `refrain` command line (bin/refrain.js) from the bench, as an operator would: the
 * bench builds its catalog with `generate`, `import` and (when it exists) `index`, and gets its key
 * from `keys create`.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../lib/paths.js';

export const REFRAIN_BIN = path.join(ROOT, 'bin/refrain.js');

export interface CliRun {
  stdout: string;
  seconds: number;
}

/**
 * Run `refrain <args…>`; stderr (progress, errors) goes to ours; rejects on an exit code not in
 * `ok` (`import` exits 3 when it rejected lines, docs/operations.md).
 */
export function refrain(args: string[], ok: readonly number[] = [0]): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [REFRAIN_BIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const stdout = Buffer.concat(chunks).toString('utf8');
      if (code !== null && ok.includes(code)) resolve({ stdout, seconds: (performance.now() - started) / 1000 });
      else reject(new Error(`refrain ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${stdout.slice(0, 500)}`));
    });
  });
}

/** The subcommands `refrain --help` lists (e.g. to find out whether `index` exists yet). */
export function refrainCommands(): string[] {
  const help = spawnSync(process.execPath, [REFRAIN_BIN, '--help'], { encoding: 'utf8' }).stdout;
  return [...help.matchAll(/^ {2}(\S+(?: \S+)?)\s{2,}/gm)].map((m) => m[1].trim());
}
