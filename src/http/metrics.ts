/**
 * Prometheus metrics at GET /metrics: request counts and latency histograms by API method and
 * status, plus Node's process metrics from prom-client.
 *
 * The request metrics are kept here rather than in prom-client: its labelled counter and histogram
 * hash their labels and walk their buckets through several calls on every observation, which
 * measured about 2.5 µs per request, a sixth of a cached request's whole cost (bench/http). Here an
 * observation is a Map lookup and a few array writes; the text format is the same.
 */
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { nativeStatus } from '../util/native.js';

const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

interface Series {
  labels: string;
  /** Non-cumulative counts per bucket; the last slot is +Inf. */
  buckets: Float64Array;
  count: number;
  sum: number;
}

/** A thread's request series, sent to the thread that answers /metrics for all (app.ts). */
export interface SeriesSnapshot {
  labels: string;
  buckets: number[];
  count: number;
  sum: number;
}

/** An HTTP thread's series, with its number (0…N−1, src/fronts.ts). */
export interface ThreadSeries {
  thread: number;
  series: SeriesSnapshot[];
}

/** `refrain_http_thread_requests_total` per HTTP thread (none with one: the main thread's are the total). */
function threadText(threads: ThreadSeries[]): string {
  if (threads.length === 0) return '';
  const lines = ['# HELP refrain_http_thread_requests_total API requests answered by each HTTP thread', '# TYPE refrain_http_thread_requests_total counter'];
  for (const { thread, series } of [...threads].sort((a, b) => a.thread - b.thread)) {
    lines.push(`refrain_http_thread_requests_total{thread="${thread}"} ${series.reduce((n, s) => n + s.count, 0)}`);
  }
  return `${lines.join('\n')}\n`;
}

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export class Metrics {
  readonly registry = new Registry();
  private readonly series = new Map<string, Series>();

  /** `processMetrics`: also Node's process metrics (false on HTTP threads: one thread reports them). */
  constructor(processMetrics = true) {
    if (!processMetrics) return;
    collectDefaultMetrics({ register: this.registry, prefix: 'refrain_' });
    new Gauge({
      name: 'refrain_native_addon',
      help: '1 when the native addon (native-index/) does its work here; 0 when the TypeScript implementations do (serve said why at start)',
      registers: [this.registry],
      collect() {
        this.set(nativeStatus() === 'native' ? 1 : 0);
      },
    });
  }

  /** Gauges read from the index service when /metrics is scraped (not per request). */
  watchIndex(stats: () => { generation: number; bytes: number; inFlight: number; rejectedBusy: number; rejectedDeadline: number; engine: string }): void {
    const gauge = (name: string, help: string, read: (s: ReturnType<typeof stats>) => number) =>
      new Gauge({
        name: `refrain_index_${name}`,
        help,
        registers: [this.registry],
        collect() {
          this.set(read(stats()));
        },
      });
    gauge('generation', 'index generation being served', (s) => s.generation);
    gauge('bytes', 'bytes of the served index generation (shared memory)', (s) => s.bytes);
    gauge('tasks_in_flight', 'index queries running or waiting for a worker', (s) => s.inFlight);
    gauge('rejected_busy_total', 'index queries answered 503 because the queue was full', (s) => s.rejectedBusy);
    gauge('rejected_deadline_total', 'index queries answered 503 because they outlived the deadline', (s) => s.rejectedDeadline);
    new Gauge({
      name: 'refrain_index_engine',
      help: 'the kernel answering index queries (--engine): 1 for the one in use, native (native-index/) or ts (TypeScript)',
      labelNames: ['engine'],
      registers: [this.registry],
      collect() {
        const engine = stats().engine;
        for (const name of ['native', 'ts']) this.set({ engine: name }, name === engine ? 1 : 0);
      },
    });
  }

  /** Record one request; `method` is the API method name, or a fixed label for unknown ones. */
  observe(method: string, status: number, seconds: number): void {
    const id = `${method} ${status}`;
    let s = this.series.get(id);
    if (!s) {
      s = { labels: `method="${escapeLabel(method)}",status="${status}"`, buckets: new Float64Array(BUCKETS.length + 1), count: 0, sum: 0 };
      this.series.set(id, s);
    }
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]) i++;
    s.buckets[i]++;
    s.count++;
    s.sum += seconds;
  }

  /** This thread's request series, to be summed with the others'. */
  snapshot(): SeriesSnapshot[] {
    return [...this.series.values()].map((s) => ({ labels: s.labels, buckets: [...s.buckets], count: s.count, sum: s.sum }));
  }

  /** This thread's series plus `others` (other threads' snapshots), summed by labels. */
  private merged(others: SeriesSnapshot[][]): Iterable<Series> {
    if (others.length === 0) return this.series.values();
    const all = new Map<string, Series>();
    for (const list of [this.snapshot(), ...others]) {
      for (const s of list) {
        let sum = all.get(s.labels);
        if (!sum) all.set(s.labels, (sum = { labels: s.labels, buckets: new Float64Array(BUCKETS.length + 1), count: 0, sum: 0 }));
        s.buckets.forEach((n, i) => (sum!.buckets[i] += n));
        sum.count += s.count;
        sum.sum += s.sum;
      }
    }
    return all.values();
  }

  private requestText(series: Iterable<Series>): string {
    const lines = [
      '# HELP refrain_requests_total API requests by method and status code',
      '# TYPE refrain_requests_total counter',
    ];
    const list = [...series];
    for (const s of list) lines.push(`refrain_requests_total{${s.labels}} ${s.count}`);
    lines.push(
      '# HELP refrain_request_duration_seconds Time from reading a request to writing its response, by method and status code',
      '# TYPE refrain_request_duration_seconds histogram',
    );
    for (const s of list) {
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i];
        lines.push(`refrain_request_duration_seconds_bucket{le="${le}",${s.labels}} ${cumulative}`);
      });
      lines.push(`refrain_request_duration_seconds_bucket{le="+Inf",${s.labels}} ${s.count}`);
      lines.push(`refrain_request_duration_seconds_sum{${s.labels}} ${s.sum}`);
      lines.push(`refrain_request_duration_seconds_count{${s.labels}} ${s.count}`);
    }
    return `${lines.join('\n')}\n`;
  }

  /**
   * The exposition text; with several HTTP threads, `threads` holds theirs (summed with this
   * thread's), and each thread's own count of requests follows: how the kernel spreads
   * connections over the threads.
   */
  async text(threads: ThreadSeries[] = []): Promise<string> {
    return `${this.requestText(this.merged(threads.map((t) => t.series)))}${threadText(threads)}${await this.registry.metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
