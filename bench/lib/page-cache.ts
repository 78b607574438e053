/**
 * Holding a server's page cache to a size, to measure reads of a data directory larger than the
 * page cache on a machine whose memory could cache it all. The page cache is dropped, the server
 * starts in a memory cgroup of its own (so every page it reads from then on is charged to it), and
 * once it is up the cgroup's limit is set to its anonymous memory plus the size: past it, the kernel
 * reclaims the cgroup's pages, the catalog pages LMDB has mapped included (which a drop of the page
 * cache leaves alone, so a server started before a drop keeps what it had mapped).
 *
 * Needs root and a writable memory controller (cgroup v1 at /sys/fs/cgroup/memory, or v2 at
 * /sys/fs/cgroup); otherwise `memoryCgroup` says why and makes nothing.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

export interface MemoryCgroup {
  /** Moves a process (all its threads) into the cgroup: what it takes from then on is charged here. */
  add(pid: number): void;
  /** Limits the cgroup to its anonymous memory now plus `bytes`: its page cache, and any growth. */
  holdPageCache(bytes: number): void;
  /** The cgroup's memory now, bytes: anonymous, page cache. */
  usage(): { anon: number; file: number };
  /** Moves its processes back to the root cgroup and removes it. */
  release(): void;
}

const V1 = '/sys/fs/cgroup/memory';
const V2 = '/sys/fs/cgroup';

/** Drops the page cache: every cached page no process maps. */
export function dropPageCache(): void {
  spawnSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '1\n');
}

export function memoryCgroup(name: string): MemoryCgroup | string {
  const v1 = existsSync(path.join(V1, 'memory.limit_in_bytes'));
  const v2 = !v1 && existsSync(path.join(V2, 'cgroup.controllers')) && readFileSync(path.join(V2, 'cgroup.controllers'), 'utf8').includes('memory');
  if (!v1 && !v2) return 'no memory cgroup controller on this machine';
  const root = v1 ? V1 : V2;
  const dir = path.join(root, `${name}-${process.pid}`);
  const file = (f: string) => path.join(dir, f);
  try {
    if (v2) writeFileSync(path.join(V2, 'cgroup.subtree_control'), '+memory');
    mkdirSync(dir);
    accessSync('/proc/sys/vm/drop_caches', constants.W_OK);
  } catch (e) {
    try {
      rmdirSync(dir);
    } catch {
      // never made
    }
    return `cannot make a memory cgroup or drop the page cache (${(e as Error).message}): run as root`;
  }
  const usage = () => {
    const stat = readFileSync(file('memory.stat'), 'utf8');
    const field = (k: string) => Number(new RegExp(`^${k} (\\d+)$`, 'm').exec(stat)?.[1] ?? 0);
    return v1 ? { anon: field('rss'), file: field('cache') } : { anon: field('anon'), file: field('file') };
  };
  const members: number[] = [];
  return {
    add: (pid) => {
      writeFileSync(file('cgroup.procs'), String(pid));
      members.push(pid);
    },
    holdPageCache: (bytes) => writeFileSync(file(v1 ? 'memory.limit_in_bytes' : 'memory.max'), String(Math.round(usage().anon + bytes))),
    usage,
    release: () => {
      for (const pid of members) {
        try {
          writeFileSync(path.join(root, 'cgroup.procs'), String(pid));
        } catch {
          // the process has exited
        }
      }
      try {
        rmdirSync(dir);
      } catch {
        // still busy: the kernel keeps it until its last process and pages are gone
      }
    },
  };
}
