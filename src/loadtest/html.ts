/**
 * The load test's HTML report: one self-contained file (inline CSS and SVG, no script, nothing
 * fetched), made from the JSON report alone, so a saved `--json` can be rendered again. Plots:
 * throughput over time per method, latency percentiles over time (log scale), and a latency
 * histogram per method (counts in log-spaced bins, decoded from the report's HdrHistograms).
 */
import hdr from 'hdr-histogram-js';
import type { LoadReport } from './run.js';
import { escapeXml as esc } from '../util/xml.js';
import { capacityLine, counts, describeRun, n } from './report.js';

const W = 760;
const H = 250;
const M = { left: 58, right: 16, top: 14, bottom: 38 };
const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#4b5563'];


interface Series {
  name: string;
  points: [number, number][];
  color: string;
  dashed?: boolean;
}

/** Tick values for a linear axis over [0, max]. */
function linearTicks(max: number): number[] {
  if (max <= 0) return [0];
  const raw = max / 5;
  const step = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw)!;
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
}

function logTicks(min: number, max: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); 10 ** e <= max * 1.0001; e++) for (const m of [1, 2, 5]) if (m * 10 ** e >= min * 0.9999 && m * 10 ** e <= max * 1.0001) out.push(m * 10 ** e);
  return out;
}

const fmt = (v: number) => (v >= 1000 ? n(Math.round(v)) : v >= 1 ? String(Math.round(v * 100) / 100) : String(Number(v.toPrecision(2))));

function lineChart(title: string, series: Series[], xLabel: string, yLabel: string, logY: boolean): string {
  const pts = series.flatMap((s) => s.points);
  if (pts.length === 0) return '';
  const xMax = Math.max(...pts.map((p) => p[0]), 1);
  const ys = pts.map((p) => p[1]).filter((y) => !logY || y > 0);
  let yMin = logY ? Math.max(Math.min(...ys), 0.01) : 0;
  let yMax = Math.max(...ys, logY ? yMin * 10 : 1);
  if (logY) {
    // Round out to the nearest 1-2-5 values, so the axis fits the data.
    const steps = (e: number) => [1, 2, 5].map((m) => m * 10 ** e);
    yMin = [...steps(Math.floor(Math.log10(yMin)) - 1), ...steps(Math.floor(Math.log10(yMin)))].filter((v) => v <= yMin).at(-1)!;
    yMax = [...steps(Math.floor(Math.log10(yMax))), ...steps(Math.floor(Math.log10(yMax)) + 1)].find((v) => v >= yMax)!;
  } else yMax = linearTicks(yMax * 1.05).at(-1)! < yMax ? yMax * 1.1 : linearTicks(yMax * 1.05).at(-1)!;
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const x = (v: number) => M.left + (v / xMax) * iw;
  const y = (v: number) => (logY ? M.top + ih - ((Math.log10(Math.max(v, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * ih : M.top + ih - (v / yMax) * ih);
  const yTicks = logY ? logTicks(yMin, yMax) : linearTicks(yMax);
  const grid = yTicks.map((t) => `<line x1="${M.left}" x2="${W - M.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" class="grid"/><text x="${M.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${fmt(t)}</text>`);
  const xTicks = linearTicks(xMax).map((t) => `<text x="${x(t).toFixed(1)}" y="${H - M.bottom + 16}" text-anchor="middle">${fmt(t)}</text>`);
  const lines = series.map((s) => `<polyline fill="none" stroke="${s.color}" stroke-width="1.6"${s.dashed ? ' stroke-dasharray="4 3"' : ''} points="${s.points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ')}"/>`);
  const legend = series.map((s, i) => `<g transform="translate(${M.left + 10 + i * 118},${M.top + 4})"><rect width="12" height="3" y="4" fill="${s.color}"/><text x="16" y="9">${esc(s.name)}</text></g>`);
  return `<figure><figcaption>${esc(title)}</figcaption><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(title)}">
${grid.join('')}${xTicks.join('')}
<text x="${M.left + iw / 2}" y="${H - 4}" text-anchor="middle">${esc(xLabel)}</text><text transform="translate(14,${M.top + ih / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>
${lines.join('\n')}${legend.join('')}</svg></figure>`;
}

/** Counts in log-spaced latency bins (8 per decade) of an encoded HdrHistogram, in ms. */
function bins(encoded: string): { from: number; to: number; count: number }[] {
  const h = hdr.decodeFromCompressedBase64(encoded, 32, false) as unknown as { recordedValuesIterator: { reset(): void; hasNext(): boolean; next(): { valueIteratedTo: number; countAtValueIteratedTo: number } } };
  const perDecade = 8;
  const byBin = new Map<number, number>();
  const it = h.recordedValuesIterator;
  it.reset();
  while (it.hasNext()) {
    const v = it.next();
    const b = Math.floor(Math.log10(Math.max(v.valueIteratedTo, 1) / 1000) * perDecade);
    byBin.set(b, (byBin.get(b) ?? 0) + v.countAtValueIteratedTo);
  }
  if (byBin.size === 0) return [];
  const keys = [...byBin.keys()];
  const out = [];
  for (let b = Math.min(...keys); b <= Math.max(...keys); b++) out.push({ from: 10 ** (b / perDecade), to: 10 ** ((b + 1) / perDecade), count: byBin.get(b) ?? 0 });
  return out;
}

function histogramChart(method: string, encoded: string, color: string): string {
  const data = bins(encoded);
  if (data.length === 0) return '';
  const w = 370;
  const h = 190;
  const m = { left: 52, right: 10, top: 10, bottom: 34 };
  const iw = w - m.left - m.right;
  const ih = h - m.top - m.bottom;
  const lo = Math.log10(data[0].from);
  const hi = Math.log10(data[data.length - 1].to);
  const x = (v: number) => m.left + ((Math.log10(v) - lo) / Math.max(hi - lo, 1e-9)) * iw;
  const top = Math.max(...data.map((d) => d.count));
  const yTicks = linearTicks(top);
  const yMax = Math.max(yTicks.at(-1)!, top);
  const y = (v: number) => m.top + ih - (v / yMax) * ih;
  const bars = data.map((d) => `<rect x="${x(d.from).toFixed(1)}" width="${Math.max(1, x(d.to) - x(d.from) - 1).toFixed(1)}" y="${y(d.count).toFixed(1)}" height="${(m.top + ih - y(d.count)).toFixed(1)}" fill="${color}"><title>${fmt(d.from)}–${fmt(d.to)} ms: ${n(d.count)}</title></rect>`);
  const xt = logTicks(data[0].from, data[data.length - 1].to).map((t) => `<text x="${x(t).toFixed(1)}" y="${h - m.bottom + 14}" text-anchor="middle">${fmt(t)}</text>`);
  const yt = yTicks.map((t) => `<line x1="${m.left}" x2="${w - m.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" class="grid"/><text x="${m.left - 5}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${fmt(t)}</text>`);
  return `<figure class="small"><figcaption>${esc(method)}: latency histogram</figcaption><svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(method)} latency histogram">${yt.join('')}${bars.join('')}${xt.join('')}<text x="${m.left + iw / 2}" y="${h - 4}" text-anchor="middle">latency, ms (log scale)</text></svg></figure>`;
}

const table = (head: string[], rows: (string | number)[][]) =>
  `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('')}</tbody></table>`;

/** Numbers right-aligned, words left. */
const cell = (c: string | number) => (typeof c === 'number' ? `<td>${n(c)}</td>` : /^[\d.,%-]*$/.test(c) ? `<td>${esc(c)}</td>` : `<td class="t">${esc(c)}</td>`);


export function htmlReport(r: LoadReport): string {
  const methods = r.methods.map((m) => m.method);
  const color = (method: string) => COLORS[methods.indexOf(method) % COLORS.length];
  const throughput = lineChart(
    'Throughput over time (requests per second answered, per method and in all)',
    [
      { name: 'all', points: r.series.map((p) => [p.t, p.perSecond]), color: '#111827' },
      ...methods.map((m) => ({ name: m, points: r.series.filter((p) => p.methods[m]).map((p): [number, number] => [p.t, p.methods[m].perSecond]), color: color(m) })),
    ],
    'seconds since the start',
    'requests/s',
    false,
  );
  const percentiles = lineChart(
    'Latency percentiles over time (all methods; from the intended send time in an open loop)',
    [
      { name: 'p50', points: r.series.map((p) => [p.t, p.p50]), color: '#059669' },
      { name: 'p90', points: r.series.map((p) => [p.t, p.p90]), color: '#2563eb' },
      { name: 'p99', points: r.series.map((p) => [p.t, p.p99]), color: '#dc2626' },
      { name: 'max', points: r.series.map((p) => [p.t, p.max]), color: '#6b7280', dashed: true },
      ...(r.ramp ? [{ name: `objective ${r.ramp.sloMs} ms`, points: [[0, r.ramp.sloMs], [r.series.at(-1)?.t ?? 1, r.ramp.sloMs]] as [number, number][], color: '#111827', dashed: true }] : []),
    ],
    'seconds since the start',
    'ms (log scale)',
    true,
  );
  const perMethod = r.methods.map((m) => [
    m.method, m.requests, m.perSecond.toFixed(1), ...[m.latency.p50, m.latency.p90, m.latency.p99, m.latency.p999, m.latency.max].map((v) => v.toFixed(2)),
    `${m.failed ? ((100 * m.failed) / m.requests).toFixed(1) : '0'}%`, m.timeouts, counts(m.http), counts(m.envelope), counts(m.errors),
  ]);
  const o = r.overall;
  perMethod.push(['all', o.requests, o.perSecond.toFixed(1), ...[o.latency.p50, o.latency.p90, o.latency.p99, o.latency.p999, o.latency.max].map((v) => v.toFixed(2)), `${o.failed ? ((100 * o.failed) / o.requests).toFixed(1) : '0'}%`, o.timeouts, '', '', '']);
  const checks = r.methods.find((m) => m.checks)?.checks;
  const sections = [
    `<h1>refrain loadtest</h1><p class="run">${esc(describeRun(r))}</p>`,
    `<p>Started ${esc(r.startedAt)} by ${esc(r.tool)}. Discovery read ${n(r.discovery.tracks)} tracks and ${n(r.discovery.lyrics)} lyrics in ${r.discovery.seconds} s (${n(r.discovery.requests)} requests). Load generator: ${r.client.cpuPercent}% of a core, at most ${r.client.maxLagMs} ms behind its schedule.${r.quota ? ` Quota: ${n(r.quota.before)} requests left before the run${r.quota.after !== undefined ? `, ${n(r.quota.after)} after` : ''}.` : ''}</p>`,
    r.warnings.length ? `<ul class="warn">${r.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>` : '',
    r.ramp ? `<h2>Capacity</h2><p class="capacity">${esc(capacityLine(r))}</p>${table(['rate req/s', 'sent/s', 'p50 ms', 'p99 ms', 'failed', 'verdict'], r.ramp.steps.map((s) => [s.rate, Math.round(s.sentPerSecond), s.p50.toFixed(2), s.p99.toFixed(2), `${(s.failedShare * 100).toFixed(1)}%`, s.pass ? 'holds' : `fails: ${s.reason}`]))}` : '',
    `<h2>Per method</h2>${table(['method', 'requests', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'failed', 'timeouts', 'HTTP statuses', 'API statuses', 'errors'], perMethod)}`,
    checks ? `<h2>Fingerprint: did the answer find the text's source?</h2>${table(['text', 'answers', 'source first', 'source listed'], Object.entries(checks).map(([v, c]) => [v, c.checked, `${((100 * c.top1) / Math.max(c.checked, 1)).toFixed(1)}%`, `${((100 * c.listed) / Math.max(c.checked, 1)).toFixed(1)}%`]))}<p class="note">exact: a 200-character excerpt; noisy: reformatted with 5% of characters mistyped; embedded: the excerpt amid prose; line: one lyric line of 4–9 words (a line many songs share lists them all, most popular first, so its source may be absent).</p>` : '',
    `<h2>Over time</h2>${throughput}${percentiles}`,
    `<h2>Latency distribution</h2><div class="grid2">${r.methods.map((m) => histogramChart(m.method, m.histogram, color(m.method))).join('')}</div>`,
  ];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>refrain loadtest — ${esc(r.target)}</title><style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111827;max-width:1180px;margin:24px auto;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:26px 0 8px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
.run{font-weight:600}.capacity{font-size:16px;font-weight:600}.note{color:#4b5563;font-size:12.5px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:12.5px}th,td{border:1px solid #e5e7eb;padding:3px 7px;text-align:right}th{background:#f3f4f6}td:first-child,th:first-child,td.t{text-align:left}
.warn{color:#92400e;background:#fffbeb;border:1px solid #fde68a;padding:8px 8px 8px 28px}
figure{margin:10px 0}figcaption{font-weight:600;font-size:13px;margin-bottom:2px}svg{font-size:11px;fill:#374151;max-width:100%;height:auto}svg .grid{stroke:#e5e7eb}
.grid2{display:flex;flex-wrap:wrap;gap:8px 24px}
</style></head><body>
${sections.join('\n')}
</body></html>
`;
}
