/**
 * The `refrain` command as a user runs it: bin/refrain.js over the build that `npm test` makes first.
 */
import { execFile, spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promisify } from 'node:util';
import { once } from 'node:events';
import path from 'node:path';
import type { Test } from 'tap';

export const BIN = path.resolve(import.meta.dirname, '../../bin/refrain.js');

/** Run a command to its end. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, input, timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const exec = promisify(execFile);

/** Run a command to its end without blocking this process's event loop (servers under test answer meanwhile). */
export async function execCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { encoding: 'utf8' });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  /** Everything written so far. */
  out(): string;
  err(): string;
  /** Resolves once stderr matches (rejects when the process exits first). */
  waitForErr(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with the exit code and signal. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** Start a long-running command (`serve`); it is killed when the test ends if still running. */
export function startCli(t: Test, args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  let done = false;
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  const exited = once(child, 'exit').then(([code, signal]) => {
    done = true;
    return [code, signal] as [number | null, NodeJS.Signals | null];
  });
  t.teardown(() => {
    if (!done) child.kill('SIGKILL');
  });
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    waitForErr(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = err.match(pattern);
          if (!m) return;
          child.stderr.off('data', check);
          resolve(m);
        };
        child.stderr.on('data', check);
        check();
        void exited.then(([code]) => {
          const m = err.match(pattern);
          if (m) resolve(m);
          else reject(new Error(`exited with ${code} before stderr matched ${pattern}:\n${err}`));
        });
      });
    },
  };
}
