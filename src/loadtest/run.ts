/**
 * A load test from start to end: check the target, discover its catalog, make the requests, probe
 * that the credentials may call every method of the mix, then load it (open loop, closed loop or
 * the ramp) and gather the report. Output is the caller's: `report.ts` and `html.ts` render it.
 */
import { Rng } from '../generate/prng.js';
import { packageRoot } from '../util/package-root.js';
import { RefrainError } from '../errors.js';
import { envelopeOf, TargetClient, type Credentials, type LoadRequest, type Outcome } from './client.js';
import { discover } from './discover.js';
import { closedLoop, openLoop, type LoadResult, type RequestSource } from './load.js';
import { LOAD_METHODS, mixText, parseMix, type LoadMethod, type MixEntry } from './mix.js';
import { judge, rampSearch, type RampResult } from './ramp.js';
import { Recorder, type MethodSummary, type Percentiles, type SeriesPoint } from './recorder.js';
import { checkTarget } from './target.js';
import { docsProse, makeRequests, MixedSource, VARIANTS } from './workload.js';

export interface LoadtestOptions {
  target: string;
  credentials: Credentials;
  allowRemote: boolean;
  mix: string;
  durationSeconds: number;
  /** Open loop at this rate (the ramp: its ceiling). */
  rate?: number;
  /** Closed loop when no rate is given; else the pool's size. */
  connections?: number;
  ramp?: { sloMs: number; stepSeconds: number; from: number };
  timeoutSeconds: number;
  discoverTracks: number;
  discoverLyrics: number;
  seed: number;
  /** Aborted: end the load now and report what was measured (the CLI's first Ctrl-C). */
  signal?: AbortSignal;
}

export interface LoadReport {
  tool: string;
  target: string;
  startedAt: string;
  mode: 'open' | 'closed' | 'ramp';
  rate?: number;
  connections: number;
  seconds: number;
  mix: string;
  discovery: { tracks: number; lyrics: number; requests: number; seconds: number; requestsMade: Record<string, number> };
  overall: { requests: number; perSecond: number; failed: number; timeouts: number; latency: Percentiles };
  methods: MethodSummary[];
  series: SeriesPoint[];
  ramp?: RampResult & { sloMs: number; stepSeconds: number };
  client: { maxLagMs: number; cpuPercent: number };
  quota?: { before: number; after?: number };
  warnings: string[];
}

export interface Hooks {
  /** A one-line status while running (discovery, then every ~second of load). */
  progress?: (line: string) => void;
  /** A warning, said before the run when it is about the run's plan. */
  warn?: (line: string) => void;
}

export const DEFAULT_RATE = 200;
export const DEFAULT_RAMP_CEILING = 100_000;
const DEFAULT_POOL = 64;
const RAMP_PAUSE_MS = 1000;

/** One request, sent and answered, for the probe of each method. */
function probe(client: TargetClient, request: LoadRequest): Promise<Outcome> {
  return new Promise((resolve) => client.send(request, true, resolve));
}

/** Refuse the run when the credentials may not call a method of the mix (the run would be all errors). */
async function probeMix(client: TargetClient, requests: Map<LoadMethod, LoadRequest[]>): Promise<number | undefined> {
  let quota: number | undefined;
  for (const [method, list] of requests) {
    const outcome = await probe(client, list[0]);
    if (outcome.quotaRemaining !== undefined) quota = outcome.quotaRemaining;
    if (outcome.error) throw new RefrainError('unavailable', `${LOAD_METHODS[method]}: ${outcome.error}`);
    if ([401, 402, 403].includes(outcome.envelope)) {
      const hint = envelopeOf(outcome.body)?.header?.hint;
      throw new RefrainError('forbidden', `the target refuses ${LOAD_METHODS[method]} to these credentials (${outcome.envelope}${hint ? `: ${hint}` : ''}); take it out of --mix or use a key whose plan allows it`);
    }
  }
  return quota;
}

/** Requests the run will send at most, when it can be known. */
function plannedRequests(options: LoadtestOptions, ceiling: number): number | undefined {
  if (options.ramp) return ceiling * options.durationSeconds;
  if (options.rate !== undefined || options.connections === undefined) return (options.rate ?? DEFAULT_RATE) * options.durationSeconds;
  return undefined;
}

export async function runLoadtest(options: LoadtestOptions, hooks: Hooks = {}): Promise<LoadReport> {
  const target = await checkTarget(options.target, options.allowRemote);
  const mix: MixEntry[] = parseMix(options.mix);
  const mode: LoadReport['mode'] = options.ramp ? 'ramp' : options.rate === undefined && options.connections !== undefined ? 'closed' : 'open';
  const ceiling = options.rate ?? (mode === 'ramp' ? DEFAULT_RAMP_CEILING : DEFAULT_RATE);
  const connections = options.connections ?? DEFAULT_POOL;
  const timeoutMs = options.timeoutSeconds * 1000;
  const client = new TargetClient(target, connections, options.credentials, timeoutMs);
  const warnings: string[] = [];
  const warn = (line: string) => {
    warnings.push(line);
    hooks.warn?.(line);
  };
  try {
    const t0 = performance.now();
    const sample = await discover(client, { tracks: options.discoverTracks, lyrics: options.discoverLyrics }, hooks.progress);
    const rng = new Rng(options.seed);
    const requests = makeRequests(rng, sample, mix, docsProse());
    for (const list of requests.values()) for (const r of list) r.path = client.withKey(r.path);
    const source: RequestSource = new MixedSource(requests, mix, rng);
    const quotaBefore = (await probeMix(client, requests)) ?? sample.quotaRemaining;
    const discoverySeconds = (performance.now() - t0) / 1000;

    const planned = plannedRequests(options, ceiling);
    if (quotaBefore !== undefined) {
      if (planned === undefined) warn(`the key has ${quotaBefore.toLocaleString('en')} requests left today; a closed-loop run sends as many as the target answers, and gets 402 once they are spent`);
      else if (planned > quotaBefore) warn(`this run may send up to ${planned.toLocaleString('en')} requests; the key has ${quotaBefore.toLocaleString('en')} left today (402 after that)`);
    }

    const methods = mix.map((e) => e.method);
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    const recorder = new Recorder(methods, start, Math.max(1000, Math.ceil(options.durationSeconds / 600) * 1000));
    /** Every ~100 ms: the recorder's intervals, and the progress line (`step` says which ramp step runs). */
    const onTick = (now: number, step = '') => {
      recorder.tick(now);
      const p = recorder.latest();
      const c = recorder.counts();
      const status = p ? `${p.perSecond.toLocaleString('en')} req/s, p99 ${p.p99.toFixed(1)} ms` : 'starting';
      hooks.progress?.(`${step}${((now - start) / 1000).toFixed(0)}/${options.durationSeconds} s  ${status}  requests ${c.requests.toLocaleString('en')}  failed ${c.failed}  timeouts ${c.timeouts}  in flight ${client.outstanding}`);
    };

    let result: LoadResult;
    let ramp: LoadReport['ramp'];
    if (mode === 'closed') {
      result = await closedLoop(client, source, recorder, { connections, durationMs: options.durationSeconds * 1000, onTick, signal: options.signal });
    } else if (mode === 'open') {
      result = await openLoop(client, source, recorder, {
        rate: ceiling,
        durationMs: options.durationSeconds * 1000,
        timeoutMs,
        maxOutstanding: maxOutstanding(ceiling, options.timeoutSeconds, connections),
        onTick,
        signal: options.signal,
      });
    } else {
      const { sloMs, stepSeconds, from } = options.ramp!;
      let maxLagMs = 0;
      let sent = 0;
      const deadline = start + options.durationSeconds * 1000;
      const search = await rampSearch({ from, max: ceiling, sloMs, mayContinue: () => !options.signal?.aborted && performance.now() + stepSeconds * 1000 <= deadline }, async (rate) => {
        recorder.resetWindow();
        const r = await openLoop(client, source, recorder, {
          rate,
          durationMs: stepSeconds * 1000,
          timeoutMs,
          maxOutstanding: maxOutstanding(rate, options.timeoutSeconds, connections),
          signal: options.signal,
          onTick: (now) => onTick(now, `ramp ${rate.toLocaleString('en')} req/s, step p99 so far ${recorder.window().latency.p99.toFixed(1)} ms · `),
        });
        maxLagMs = Math.max(maxLagMs, r.maxLagMs);
        sent += r.sent;
        const w = recorder.window();
        const step = judge(rate, { sentPerSecond: r.sent / (stepSeconds), p50: w.latency.p50, p99: w.latency.p99, failedShare: w.requests ? w.failed / w.requests : 0 }, sloMs);
        hooks.progress?.(`ramp ${rate.toLocaleString('en')} req/s: p99 ${step.p99} ms — ${step.pass ? 'holds' : `fails (${step.reason})`}`);
        await new Promise((resolve) => setTimeout(resolve, RAMP_PAUSE_MS));
        return step;
      });
      ramp = { ...search, sloMs, stepSeconds };
      result = { sent, seconds: (performance.now() - start) / 1000, maxLagMs };
    }
    const end = performance.now();
    recorder.close(end);
    const used = process.cpuUsage(cpu0);
    const cpuPercent = Math.round(((used.user + used.system) / 1000 / (end - start)) * 100);
    if (options.signal?.aborted) warn(`stopped by the operator after ${result.seconds.toFixed(1)} s of ${options.durationSeconds} s`);
    if (result.maxLagMs > 50) warn(`the load generator fell behind its schedule by up to ${result.maxLagMs.toFixed(0)} ms: its own delays are in the latencies (it used ${cpuPercent}% of a core); run it from another machine or lower the rate`);
    else if (cpuPercent > 85) warn(`the load generator used ${cpuPercent}% of a core: it may be what limits the throughput`);

    const methodsSummary = recorder.summary().map((m) => (m.checks ? { ...m, checks: inVariantOrder(m.checks) } : m));
    const counts = recorder.counts();
    const lastQuota = client.lastQuota;
    return {
      tool: `refrain loadtest ${packageRoot()?.version ?? ''}`.trim(),
      target: target.origin,
      startedAt: new Date(Date.now() - (end - start)).toISOString(),
      mode,
      ...(mode === 'closed' ? {} : { rate: ceiling }),
      connections,
      seconds: Math.round(result.seconds * 10) / 10,
      mix: mixText(mix),
      discovery: {
        tracks: sample.tracks.length,
        lyrics: sample.lyrics.length,
        requests: sample.requests + requests.size,
        seconds: Math.round(discoverySeconds * 10) / 10,
        requestsMade: Object.fromEntries([...requests].map(([m, l]) => [m, l.length])),
      },
      overall: {
        requests: counts.requests,
        perSecond: Math.round((10 * counts.requests) / Math.max(result.seconds, 1e-3)) / 10,
        failed: counts.failed,
        timeouts: counts.timeouts,
        latency: recorder.overall(),
      },
      methods: methodsSummary,
      series: recorder.series,
      ...(ramp ? { ramp } : {}),
      client: { maxLagMs: Math.round(result.maxLagMs * 10) / 10, cpuPercent },
      ...(quotaBefore !== undefined ? { quota: { before: quotaBefore, ...(lastQuota !== undefined ? { after: lastQuota } : {}) } } : {}),
      warnings,
    };
  } finally {
    await client.close();
  }
}

/** The fingerprint checks in the order the variants are described. */
function inVariantOrder<T>(checks: Record<string, T>): Record<string, T> {
  return Object.fromEntries(VARIANTS.filter((v) => v in checks).map((v) => [v, checks[v]]));
}

/** Outstanding requests allowed in an open loop: what the rate sends within the timeout, plus a connection's worth each. */
function maxOutstanding(rate: number, timeoutSeconds: number, connections: number): number {
  return Math.ceil(rate * timeoutSeconds) + connections;
}
