/**
 * One holder at a time across processes: a lock file made with O_EXCL holding the holder's pid.
 * A lock whose process is gone is taken over. Used by the index builder (one per data directory),
 * the feed builders (`serve`'s schedule and `refrain feeds build|prune`) and `refrain sync`.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Releases a held lock. */
export type Release = () => void;

/** The lock, or undefined when a live process (this one included) holds it. */
export function tryLock(file: string): Release | undefined {
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = holderState(file);
      if (holder === 'alive') return undefined;
      // Its holder died: take it over. Released meanwhile: just try again (removing the file then
      // could remove a lock someone else has just taken).
      if (holder === 'dead') rmSync(file, { force: true });
    }
  }
  return undefined;
}

/** Wait for the lock (polling), calling `onWait` with the holder's pid once if it has to wait. */
export async function lock(file: string, onWait?: (pid: string) => void): Promise<Release> {
  for (let waited = false; ; waited = true) {
    const release = tryLock(file);
    if (release) return release;
    if (!waited) onWait?.(holderOf(file));
    await sleep(250);
  }
}

/** The pid written in a lock file ('?' when unreadable). */
export function holderOf(file: string): string {
  try {
    return readFileSync(file, 'utf8') || '?';
  } catch {
    return '?';
  }
}

function holderState(file: string): 'alive' | 'dead' | 'gone' {
  try {
    const text = readFileSync(file, 'utf8');
    // Made but not written yet by its holder (the window between open and write): alive unless stale.
    if (text === '') return Date.now() - statSync(file).mtimeMs < 10_000 ? 'alive' : 'dead';
    return processAlive(Number(text)) ? 'alive' : 'dead';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'dead'; // ENOENT: released meanwhile
  }
}

/** Whether a process of this pid runs on this machine (this one included; EPERM: under another user). */
export function processAlive(pid: number): boolean {
  if (!pid) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
