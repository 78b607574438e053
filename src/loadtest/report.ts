/** The terminal summary of a load test: what ran, per-method latencies and statuses, the checks, the ramp. */
import type { LoadReport } from './run.js';
import type { MethodSummary, Percentiles } from './recorder.js';

export const n = (x: number) => x.toLocaleString('en');
const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)}%` : '—');
/** Status counts as `200×804 503×1`. */
export const counts = (c: Record<string, number>) => Object.entries(c).map(([k, v]) => `${k}×${n(v)}`).join(' ') || '—';

export function describeRun(r: LoadReport): string {
  const how = r.mode === 'closed'
    ? `closed loop, ${r.connections} connections`
    : r.mode === 'ramp'
      ? `ramp from ${n(r.ramp?.steps[0]?.rate ?? 0)} req/s up to ${n(r.rate ?? 0)} req/s, ${r.ramp?.stepSeconds} s per step, p99 objective ${r.ramp?.sloMs} ms`
      : `open loop at ${n(r.rate ?? 0)} req/s, up to ${r.connections} connections`;
  return `${r.target} — ${how}; ${r.seconds} s; mix ${r.mix}`;
}

function row(name: string, requests: number, perSecond: number, l: Percentiles, failed: number, timeouts: number, statuses: string): string {
  const cells = [name.padEnd(18), n(requests).padStart(9), perSecond.toFixed(1).padStart(9), ...[l.p50, l.p90, l.p99, l.p999, l.max].map((v) => v.toFixed(2).padStart(8))];
  return `${cells.join(' ')} ${pct(failed, requests).padStart(7)} ${n(timeouts).padStart(8)}  ${statuses}`;
}

const statusesOf = (m: MethodSummary) => `HTTP ${counts(m.http)}; API ${counts(m.envelope)}${Object.keys(m.errors).length ? `; errors ${counts(m.errors)}` : ''}`;

export function summaryText(r: LoadReport): string {
  const lines = [
    `refrain loadtest → ${describeRun(r)}`,
    `discovery: ${n(r.discovery.tracks)} tracks, ${n(r.discovery.lyrics)} lyrics in ${r.discovery.seconds} s (${n(r.discovery.requests)} requests)`,
    '',
    `${'method'.padEnd(18)} ${'requests'.padStart(9)} ${'req/s'.padStart(9)} ${['p50', 'p90', 'p99', 'p99.9', 'max'].map((h) => `${h} ms`.padStart(8)).join(' ')} ${'failed'.padStart(7)} ${'timeouts'.padStart(8)}  statuses`,
    ...r.methods.map((m) => row(m.method, m.requests, m.perSecond, m.latency, m.failed, m.timeouts, statusesOf(m))),
    row('all', r.overall.requests, r.overall.perSecond, r.overall.latency, r.overall.failed, r.overall.timeouts, ''),
  ];
  const fp = r.methods.find((m) => m.checks);
  if (fp?.checks) {
    const parts = Object.entries(fp.checks).map(([v, c]) => `${v} ${pct(c.top1, c.checked)} first, ${pct(c.listed, c.checked)} listed (${n(c.checked)})`);
    lines.push('', `fingerprint answers that found the text's source track: ${parts.join('; ')}`);
  }
  if (r.ramp) {
    lines.push('', 'ramp steps:', `${'rate'.padStart(9)} ${'sent/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'failed'.padStart(7)}  verdict`);
    for (const s of r.ramp.steps) {
      lines.push(`${n(s.rate).padStart(9)} ${n(Math.round(s.sentPerSecond)).padStart(9)} ${s.p50.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${`${(s.failedShare * 100).toFixed(1)}%`.padStart(7)}  ${s.pass ? 'holds' : `fails: ${s.reason}`}`);
    }
    lines.push(capacityLine(r));
  }
  lines.push('', `load generator: ${r.client.cpuPercent}% of a core, at most ${r.client.maxLagMs} ms behind schedule`);
  if (r.quota) lines.push(`quota: ${n(r.quota.before)} requests left before the run${r.quota.after !== undefined ? `, ${n(r.quota.after)} after` : ''}`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export function capacityLine(r: LoadReport): string {
  if (!r.ramp) return '';
  const { capacity, open, sloMs } = r.ramp;
  if (capacity === undefined) return `capacity: not found — even the first step (${n(r.ramp.steps[0]?.rate ?? 0)} req/s) missed p99 ≤ ${sloMs} ms; try a lower --ramp-from`;
  const bound = open ? ` (at least: the search stopped at ${r.ramp.steps.length && capacity === r.rate ? 'the --rate ceiling' : 'the end of --duration'} before a step failed)` : '';
  return `capacity: ${n(capacity)} req/s of this mix with p99 ≤ ${sloMs} ms${bound}`;
}
