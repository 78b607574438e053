/**
 * Shared pieces of the bench scripts: child processes that print their port, CPU time of a process
 * by thread from /proc, closed-loop HTTP load on `refrain loadtest`'s engine, and the machine description every
 * report carries.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { TargetClient } from '../../src/loadtest/client.js';
import { closedLoop, type RequestSource } from '../../src/loadtest/load.js';
import { Recorder } from '../../src/loadtest/recorder.js';

/**
 * What a bench started (servers, importers, temporary directories), stopped in reverse order by
 * `cleanUp()` at the end, and on Ctrl-C before exiting with 130.
 */
export function cleanUpOnExit(first: (() => void)[] = []): { stops: (() => void)[]; cleanUp: () => void } {
  const stops = [...first];
  const cleanUp = () => {
    for (const stop of stops.splice(0).reverse()) stop();
  };
  process.once('SIGINT', () => {
    cleanUp();
    process.exit(130);
  });
  return { stops, cleanUp };
}

/** Start a Node script and wait for the first line of stdout matching `ready`. */
export async function startProcess(
  args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}, onSpawn?: (pid: number) => void,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  // Before the child has loaded anything (e.g. moved into a cgroup that should count all it takes).
  if (onSpawn && child.pid !== undefined) onSpawn(child.pid);
  const lines = createInterface({ input: child.stdout! });
  const errors = createInterface({ input: child.stderr! });
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const check = (line: string) => {
      const m = ready.exec(line);
      if (m) resolve(m);
    };
    lines.on('line', check);
    errors.on('line', check);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before it was ready`)));
  });
  return { child, match };
}

/** CPU seconds (user + system) of a process so far, by kind of thread. */
export interface ThreadCpu {
  /** The thread that runs JavaScript's event loop: in Refrain the HTTP front end, whose cost per request caps a node's throughput whatever its cores. */
  main: number;
  /** The HTTP threads of `--http-threads` 2 or more (named `refrain-http`); 0 with one. */
  http: number;
  /** The index pool's workers (threads named `refrain-index`, src/util/thread-name.ts). */
  index: number;
  /** Every other thread: libuv's pool, V8's GC and compiler threads, LMDB, builds. */
  others: number;
}

/**
 * A process's CPU time split by thread (Linux /proc/<pid>/task). Threads that ended during a
 * measurement take their time with them: compare runs with the same threads alive.
 */
export function cpuByThread(pid: number): ThreadCpu {
  const cpu: ThreadCpu = { main: 0, http: 0, index: 0, others: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = statFields(stat);
    const seconds = (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
    if (Number(tid) === pid) cpu.main += seconds;
    else if (name === 'refrain-index') cpu.index += seconds;
    else if (name === 'refrain-http') cpu.http += seconds;
    else cpu.others += seconds;
  }
  return cpu;
}

/**
 * The fields of a /proc stat line after the command name (which may hold spaces and parentheses):
 * [0] is the state, the line's 3rd field; field n of proc(5) is [n - 3].
 */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
}

/**
 * CPU seconds of a process's threads by name while it runs, for threads that end before it does
 * (an import's reading threads): /proc/<pid>/task read every `everyMs` ms, each thread's last
 * reading kept (so a thread's last interval before it ended is not counted; short against a run).
 * The main thread is named `main`.
 */
export function sampleThreadCpu(pid: number, everyMs = 200): { stop(): Record<string, number> } {
  const last = new Map<string, { name: string; seconds: number }>();
  const read = (): void => {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = statFields(stat);
        const name = Number(tid) === pid ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        last.set(tid, { name, seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
      } catch {
        // the thread ended meanwhile
      }
    }
  };
  read();
  const start = new Map([...last].map(([tid, v]) => [tid, v.seconds]));
  const timer = setInterval(read, everyMs);
  return {
    stop() {
      clearInterval(timer);
      read();
      const byName: Record<string, number> = {};
      for (const [tid, { name, seconds }] of last) byName[name] = (byName[name] ?? 0) + seconds - (start.get(tid) ?? 0);
      return byName;
    },
  };
}

/** A process's major page faults so far (reads that waited for the disk): majflt, field 12 of /proc/<pid>/stat. */
export function majorFaults(pid: number): number {
  return Number(statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))[9]);
}

/** CPU per request in µs by kind of thread, between two readings of cpuByThread. */
export function cpuPerRequest(before: ThreadCpu, after: ThreadCpu, requests: number): ThreadCpu & { all: number } {
  const per = (k: keyof ThreadCpu) => ((after[k] - before[k]) / Math.max(requests, 1)) * 1e6;
  const out = { main: per('main'), http: per('http'), index: per('index'), others: per('others') };
  return { ...out, all: out.main + out.http + out.index + out.others };
}

/** A table cell: CPU per request all / main / index pool / others, µs (and the HTTP threads', when there are). */
export const cpuCell = (c: ThreadCpu & { all: number }, digits = 0): string =>
  `${c.all.toFixed(digits)} / ${c.main.toFixed(digits)} / ${c.index.toFixed(digits)} / ${c.others.toFixed(digits)}` +
  (c.http > 0 ? `; HTTP threads ${c.http.toFixed(digits)}` : '');

export const CPU_COLUMN = 'server CPU µs/request: all / main (HTTP) thread / index pool / other threads';

/** A request the benches send (the API key already in its path). */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The body's Content-Type (JSON when absent). */
  contentType?: string;
}

export interface LoadRow {
  requests: number;
  seconds: number;
  rps: number;
  p50ms: number;
  p90ms: number;
  p99ms: number;
  non2xx: number;
  /** Requests without an answer: connection errors and timeouts. */
  errors: number;
}

/** How the benches load a server, for their reports' headers. */
export const LOAD_GENERATOR = "refrain loadtest's engine (src/loadtest: undici, closed loop, HdrHistogram) in the bench's process, one thread";

/**
 * A closed-loop run of `refrain loadtest`'s engine: `connections` callers, each sending the next of
 * `requests` (cycled through in order; `GET /` of the URL when none) as soon as its previous one is
 * answered, for `seconds`. The same engine an operator's `refrain loadtest --connections N` uses, so
 * the benches' figures and an operator's run compare.
 */
export async function load(url: string, options: { seconds: number; connections: number; requests?: BenchRequest[] }): Promise<LoadRow> {
  const origin = new URL(url);
  const list = options.requests ?? [{ method: 'GET', path: origin.pathname }];
  let next = 0;
  const source: RequestSource = {
    next() {
      const r = list[next];
      next = next + 1 === list.length ? 0 : next + 1;
      return { method: 'bench', verb: r.method, path: r.path, body: r.body, contentType: r.contentType };
    },
  };
  const client = new TargetClient(origin, options.connections, undefined, 30_000);
  const recorder = new Recorder(['bench'], performance.now());
  try {
    const result = await closedLoop(client, source, recorder, { connections: options.connections, durationMs: options.seconds * 1000 });
    recorder.close(performance.now());
    const [s] = recorder.summary();
    const non2xx = Object.entries(s.http).reduce((n, [code, count]) => n + (Number(code) >= 200 && Number(code) < 300 ? 0 : count), 0);
    return {
      requests: s.requests,
      seconds: result.seconds,
      rps: s.requests / result.seconds,
      p50ms: s.latency.p50,
      p90ms: s.latency.p90,
      p99ms: s.latency.p99,
      non2xx,
      errors: s.timeouts + Object.values(s.errors).reduce((n, c) => n + c, 0),
    };
  } finally {
    await client.close();
  }
}

/** Bytes under a directory (regular files, recursively). */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(p);
    else if (entry.isFile()) total += statSync(p).size;
  }
  return total;
}

/** The machine a report ran on. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}
