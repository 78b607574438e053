/**
 * bench/abuse/pipeline-flood: clients that pipeline many requests and never read the answers
 * (issue 11, item 1). Before the connection rules (src/http/connection.ts) the server copied every
 * unread answer into memory: 10 connections × 1,000 `GET /ws/1.1/openapi.json` took it from 271 MB
 * to 1.6 GB and /healthz went unanswered for ~12 s. Target: < 100 MB of RSS growth, /healthz < 50 ms.
 *
 *   npm run bench:pipeline-flood -- [--connections 10] [--requests 1000] [--seconds 5]
 *                                   [--path /ws/1.1/openapi.json] [--url http://127.0.0.1:PORT --pid PID] [--smoke]
 *
 * Without --url it starts its own server (127.0.0.1, port 0) on an empty catalog in a temporary
 * directory (openapi.json needs no key) and stops it at the end. With --url it floods that server,
 * which must be on 127.0.0.1 (RSS is read from /proc/PID/status when --pid is given). The flood is
 * bounded: `connections × requests` requests written once, then /healthz is asked every 50 ms on
 * its own keep-alive connection for `seconds` seconds; then every socket is destroyed.
 * --smoke: 2 connections × 100 requests for 2 s.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchArgs } from '../lib/args.js';
import { machine } from '../lib/measure.js';
import { startRefrain } from '../lib/servers.js';

const args = benchArgs({
  connections: 10,
  requests: 1000,
  seconds: 5,
  path: '/ws/1.1/openapi.json',
  url: undefined,
  pid: undefined,
  smoke: false,
});
const connections = args.smoke ? 2 : Math.min(args.connections, 200);
const requests = args.smoke ? 100 : Math.min(args.requests, 20_000);
const seconds = args.smoke ? 2 : Math.min(args.seconds, 60);

function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : undefined;
}

/** One keep-alive connection asking GET /healthz; resolves with each answer's latency in ms. */
class HealthProbe {
  private socket: net.Socket;
  private buffered = '';
  private waiting?: (ms: number) => void;
  private started = 0;
  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (d) => {
      this.buffered += d.toString('latin1');
      const end = this.buffered.indexOf('{"status":"ok"}');
      if (end !== -1 && this.waiting) {
        this.buffered = this.buffered.slice(end + 15);
        const done = this.waiting;
        this.waiting = undefined;
        done(performance.now() - this.started);
      }
    });
    this.socket.on('error', () => undefined);
  }
  ask(timeoutMs: number): Promise<number> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve(timeoutMs); // counted as the timeout: an unanswered probe is at least this slow
      }, timeoutMs);
      this.waiting = (ms) => {
        clearTimeout(timer);
        resolve(ms);
      };
      this.started = performance.now();
      this.socket.write('GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n');
    });
  }
  close(): void {
    this.socket.destroy();
  }
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  let url = args.url;
  let pid = args.pid ? Number(args.pid) : undefined;
  let stop = () => {};
  let data: string | undefined;
  if (!url) {
    data = mkdtempSync(path.join(tmpdir(), 'refrain-flood-'));
    const server = await startRefrain(data, ['--index-threads', '1']);
    url = server.url;
    pid = server.pid;
    stop = server.stop;
  }
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1') throw new Error('--url must be on 127.0.0.1: this script floods only the local machine');
  const port = Number(target.port);
  try {
    const probe = new HealthProbe(port);
    for (let i = 0; i < 5; i++) await probe.ask(5000); // warm: connection set up, JIT
    await new Promise((r) => setTimeout(r, 500));
    const before = rssMb(pid);
    let peak = before ?? 0;

    const request = `GET ${args.path} HTTP/1.1\r\nHost: bench\r\n\r\n`.repeat(requests);
    let closedByServer = 0;
    const flood = Array.from({ length: connections }, () => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.pause(); // never read: the answers pile up on the server's side
        s.write(request);
      });
      s.on('error', () => undefined);
      s.on('close', () => closedByServer++);
      return s;
    });

    const latencies: number[] = [];
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      latencies.push(await probe.ask(5000));
      peak = Math.max(peak, rssMb(pid) ?? 0);
      await new Promise((r) => setTimeout(r, 50));
    }
    // A paused socket does not see the server's FIN: read what is left (at most the socket
    // buffers) to learn which were closed, waiting up to 5 s.
    for (const s of flood) s.resume();
    const readUntil = performance.now() + 5000;
    while (closedByServer < connections && performance.now() < readUntil) await new Promise((r) => setTimeout(r, 100));
    const closed = closedByServer;
    flood.forEach((s) => s.destroy());
    probe.close();

    if (process.env.FLOOD_DEBUG) console.error(latencies.map((x) => x.toFixed(1)).join(" "));
    latencies.sort((a, b) => a - b);
    const result = {
      machine: machine(),
      flood: `${connections} connections × ${requests} × GET ${args.path}, never read`,
      rssBeforeMb: before === undefined ? null : Math.round(before),
      rssPeakMb: before === undefined ? null : Math.round(peak),
      rssGrowthMb: before === undefined ? null : Math.round(peak - before),
      healthz: { probes: latencies.length, p50ms: +percentile(latencies, 50).toFixed(2), p99ms: +percentile(latencies, 99).toFixed(2), maxMs: +latencies[latencies.length - 1].toFixed(2) },
      floodConnectionsClosedByServer: closed,
    };
    console.log(JSON.stringify(result, null, 2));
    const ok = (result.rssGrowthMb ?? 0) < 100 && result.healthz.p99ms < 50;
    console.error(ok ? 'within target (< 100 MB growth, /healthz p99 < 50 ms)' : 'OVER TARGET (< 100 MB growth, /healthz p99 < 50 ms)');
    process.exitCode = ok ? 0 : 1;
  } finally {
    stop();
    if (data) rmSync(data, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
