/**
 * What a run measured, per method: latencies in HdrHistogram (hdr-histogram-js, the HdrHistogram
 * project's port: fixed memory, 3 significant digits from 1 µs to an hour, mergeable and encodable),
 * HTTP and API status counts, errors, timeouts and the fingerprint check; and a time series (one
 * point per interval: throughput and percentiles, per method and overall) for the report's plots.
 */
import hdr from 'hdr-histogram-js';
import type { Outcome } from './client.js';

type Histogram = ReturnType<typeof hdr.build>;

const newHistogram = (): Histogram =>
  hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false });

/** Latency figures in milliseconds. */
export interface Percentiles {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export interface FingerprintCheck {
  /** Answers checked (a fingerprint request that got a track list). */
  checked: number;
  /** …whose first track is the source track or one of its recording's. */
  top1: number;
  /** …which hold it among the tracks returned. */
  listed: number;
}

export interface MethodSummary {
  method: string;
  requests: number;
  perSecond: number;
  latency: Percentiles;
  http: Record<string, number>;
  envelope: Record<string, number>;
  errors: Record<string, number>;
  timeouts: number;
  /** Requests without an answer or answered with an API status other than 200 and 404: the error rate's numerator. */
  failed: number;
  checks?: Record<string, FingerprintCheck>;
  /** The latency histogram, HdrHistogram's compressed base64 form (for merging runs). */
  histogram: string;
}

export interface SeriesPoint {
  /** Seconds since the start, at the end of the interval. */
  t: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  failed: number;
  methods: Record<string, { perSecond: number; p99: number }>;
}

class MethodStats {
  readonly total = newHistogram();
  readonly current = newHistogram();
  readonly http = new Map<number, number>();
  readonly envelope = new Map<number, number>();
  readonly errors = new Map<string, number>();
  timeouts = 0;
  failed = 0;
  readonly checks = new Map<string, FingerprintCheck>();
}

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
const ms = (us: number) => Math.round(us) / 1000;
const countsOf = <K>(map: Map<K, number>) => Object.fromEntries([...map].sort(([a], [b]) => String(a).localeCompare(String(b))));

/** Percentiles are a bucket's upper edge (within 0.1%): never shown above the exact maximum. */
export function percentilesOf(h: Histogram): Percentiles {
  const max = h.maxValue;
  const at = (p: number) => ms(Math.min(h.getValueAtPercentile(p), max));
  return {
    count: h.totalCount,
    mean: h.totalCount ? Math.round(h.mean) / 1000 : 0,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max: ms(max),
  };
}

export class Recorder {
  private readonly stats = new Map<string, MethodStats>();
  private readonly allNow = newHistogram();
  private failedNow = 0;
  /** Since `resetWindow`: what a ramp step judges. */
  private readonly windowAll = newHistogram();
  private windowFailed = 0;
  readonly series: SeriesPoint[] = [];
  private intervalStart: number;
  /** When the measured window ended (set by `close`), in the clock's milliseconds. */
  private endedAt: number | undefined;

  /** `startedAt` and `intervalMs` in the clock's milliseconds (performance.now()). */
  constructor(methods: readonly string[], private readonly startedAt: number, private readonly intervalMs = 1000) {
    for (const m of methods) this.stats.set(m, new MethodStats());
    this.intervalStart = startedAt;
  }

  /** One answered (or failed) request, `latencyMs` from its intended send time. */
  record(method: string, latencyMs: number, outcome: Outcome): void {
    const s = this.statsOf(method);
    const us = Math.max(1, Math.round(latencyMs * 1000));
    s.total.recordValue(us);
    s.current.recordValue(us);
    this.allNow.recordValue(us);
    this.windowAll.recordValue(us);
    if (outcome.error === 'timeout') s.timeouts++;
    else if (outcome.error) bump(s.errors, outcome.error);
    if (outcome.http) bump(s.http, outcome.http);
    if (outcome.envelope) bump(s.envelope, outcome.envelope);
    // A 404 is an answer (a matcher query nothing matches); anything else but 200 is a failure.
    const status = outcome.envelope || outcome.http;
    if (outcome.error || (status !== 200 && status !== 404)) {
      s.failed++;
      this.failedNow++;
      this.windowFailed++;
    }
  }

  /** A fingerprint answer checked against the text's source: `rank` of the source among the tracks (0 first), -1 absent. */
  check(method: string, variant: string, rank: number): void {
    const checks = this.statsOf(method).checks;
    let c = checks.get(variant);
    if (!c) checks.set(variant, (c = { checked: 0, top1: 0, listed: 0 }));
    c.checked++;
    if (rank === 0) c.top1++;
    if (rank >= 0) c.listed++;
  }

  /** Close the intervals that ended by `now`; the series gets one point each. */
  tick(now: number): void {
    while (now - this.intervalStart >= this.intervalMs) this.closeInterval(this.intervalStart + this.intervalMs);
  }

  /** End the measured window at `now` (a last, partial interval included when it holds anything). */
  close(now: number): void {
    this.tick(now);
    if (this.allNow.totalCount > 0 && now > this.intervalStart) this.closeInterval(now);
    this.endedAt = now;
  }

  /** The latest point, for the progress line. */
  latest(): SeriesPoint | undefined {
    return this.series[this.series.length - 1];
  }

  /** Requests recorded so far, failed ones among them. */
  counts(): { requests: number; failed: number; timeouts: number } {
    let requests = 0;
    let failed = 0;
    let timeouts = 0;
    for (const s of this.stats.values()) {
      requests += s.total.totalCount;
      failed += s.failed;
      timeouts += s.timeouts;
    }
    return { requests, failed, timeouts };
  }

  /** Start a new window (a ramp step). */
  resetWindow(): void {
    this.windowAll.reset();
    this.windowFailed = 0;
  }

  window(): { requests: number; failed: number; latency: Percentiles } {
    return { requests: this.windowAll.totalCount, failed: this.windowFailed, latency: percentilesOf(this.windowAll) };
  }

  /** Every method's latencies together: their histograms added up. */
  overall(): Percentiles {
    const all = newHistogram();
    for (const s of this.stats.values()) all.add(s.total);
    return percentilesOf(all);
  }

  summary(): MethodSummary[] {
    const seconds = Math.max(1e-3, ((this.endedAt ?? performance.now()) - this.startedAt) / 1000);
    return [...this.stats].filter(([, s]) => s.total.totalCount > 0).map(([method, s]) => ({
      method,
      requests: s.total.totalCount,
      perSecond: Math.round((10 * s.total.totalCount) / seconds) / 10,
      latency: percentilesOf(s.total),
      http: countsOf(s.http),
      envelope: countsOf(s.envelope),
      errors: countsOf(s.errors),
      timeouts: s.timeouts,
      failed: s.failed,
      ...(s.checks.size ? { checks: Object.fromEntries(s.checks) } : {}),
      histogram: hdr.encodeIntoCompressedBase64(s.total),
    }));
  }

  private statsOf(method: string): MethodStats {
    let s = this.stats.get(method);
    if (!s) this.stats.set(method, (s = new MethodStats()));
    return s;
  }

  private closeInterval(end: number): void {
    const seconds = Math.max(1e-3, (end - this.intervalStart) / 1000);
    const methods: SeriesPoint['methods'] = {};
    for (const [method, s] of this.stats) {
      if (s.current.totalCount === 0) continue;
      methods[method] = { perSecond: Math.round(s.current.totalCount / seconds), p99: ms(s.current.getValueAtPercentile(99)) };
      s.current.reset();
    }
    const p = percentilesOf(this.allNow);
    this.series.push({
      t: Math.round((end - this.startedAt) / 100) / 10,
      perSecond: Math.round(this.allNow.totalCount / seconds),
      p50: p.p50,
      p90: p.p90,
      p99: p.p99,
      max: p.max,
      failed: this.failedNow,
      methods,
    });
    this.allNow.reset();
    this.failedNow = 0;
    this.intervalStart = end;
  }
}
