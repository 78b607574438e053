/**
 * Shared pieces of the bench scripts: child processes that print their port, CPU time of a process
 * from /proc, wrk runs parsed into numbers and the scripts they cycle through, and the machine
 * description every report carries.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

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
export async function startProcess(args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
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

/** User + system CPU seconds a process has used so far (Linux /proc). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100; // USER_HZ is 100 on Linux
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50ms: number;
  p90ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
}

const toMs = (v: string, unit: string): number => Number(v) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);

/** Run wrk (keep-alive by default) and parse its --latency report. */
export function wrk(url: string, options: { seconds: number; connections: number; threads?: number; script?: string }): WrkResult {
  const args = ['-t', String(options.threads ?? 1), '-c', String(options.connections), '-d', `${options.seconds}s`, '--latency'];
  if (options.script) args.push('-s', options.script);
  const run = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  if (run.error) throw new Error('wrk is needed: apt-get install wrk');
  const out = run.stdout;
  const pct = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
    return m ? toMs(m[1], m[2]) : NaN;
  };
  const total = /(\d+) requests in ([\d.]+)(s|m)/.exec(out);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const requests = total ? Number(total[1]) : 0;
  const seconds = total ? Number(total[2]) * (total[3] === 'm' ? 60 : 1) : 0;
  return {
    requests,
    seconds,
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50ms: pct('50'),
    p90ms: pct('90'),
    p99ms: pct('99'),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    errors: errors ? errors.slice(1).reduce((n, v) => n + Number(v), 0) : 0,
  };
}

/** A wrk script cycling through requests (GET paths, or POST bodies to one path). */
export function luaScript(file: string, requests: { method: 'GET' | 'POST'; path: string; body?: string }[]): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const items = requests.map((r) => `{${JSON.stringify(r.method)},${JSON.stringify(r.path)},${r.body === undefined ? 'nil' : JSON.stringify(r.body)}}`);
  const lua = `local reqs = {${items.join(',\n')}}
local i = 0
local json = {["Content-Type"] = "application/json"}
request = function()
  i = i % #reqs + 1
  local r = reqs[i]
  if r[3] then return wrk.format(r[1], r[2], json, r[3]) end
  return wrk.format(r[1], r[2])
end
`;
  writeFileSync(file, lua);
  return file;
}

/** The machine a report ran on. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** The wrk version line, for the report's header. */
export function wrkVersion(): string {
  return spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0] ?? '';
}
