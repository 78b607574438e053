/**
 * bench/abuse/shedding: how the index queue sheds load (issue 11, item 7; before the change, at 256
 * in flight with 20,000-character texts the 503s came at p50 2.3 s, past the 2 s deadline, and at
 * 700 in flight the successful throughput halved).
 *
 *   npm run bench:shedding -- [--data DIR] [--tracks 20000] [--levels 256,700] [--seconds 20] [--chars 20000] [--backoff-ms 0] [--smoke]
 *
 * A server (`refrain serve`, default deadline) runs on `--data` (a data directory with a catalog and
 * its index) or on a fresh temporary catalog of `--tracks` generated tracks. At each level, that
 * many closed-loop clients keep one track.lyrics.fingerprint.post each in flight (a new one as soon
 * as an answer arrives; after a 503 they wait `--backoff-ms`), each text `--chars` characters of
 * catalog lyrics. Reported per level: successful answers per second, the latency of 200s and of
 * 503s (p50/p99), other statuses. Targets: 503 p99 ≤ the deadline; throughput at the highest level
 * ≥ 80% of that at the lowest. Only 127.0.0.1; bounded by `--seconds` per level; the server and any
 * temporary directory are removed at the end. `--smoke`: 2,000 tracks, levels 16,48, 4 s each, no
 * result file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { Catalog, everyId } from '../../src/catalog/store.js';
import { buildIndex } from '../../src/index/service/build.js';
import { benchArgs } from '../lib/args.js';
import { benchKey, makeCatalogIfMissing } from '../lib/catalog.js';
import { machine, cleanUpOnExit } from '../lib/measure.js';
import { writeResult } from '../lib/paths.js';
import { startRefrain } from '../lib/servers.js';

const args = benchArgs({
  data: undefined,
  tracks: 20000,
  levels: [256, 700],
  seconds: 20,
  chars: 20000,
  'deadline-ms': 2000,
  'backoff-ms': 0,
  smoke: false,
});
const smoke = args.smoke;
const levels = smoke ? [16, 48] : args.levels;
const seconds = smoke ? 4 : args.seconds;
const chars = args.chars;
const deadlineMs = args['deadline-ms'];
const backoffMs = args['backoff-ms'];
const tracks = smoke ? 2000 : args.tracks;

const { stops, cleanUp } = cleanUpOnExit();

try {
  let data = args.data;
  if (!data) {
    const dir = mkdtempSync(path.join(tmpdir(), 'refrain-shedding-bench-'));
    stops.push(() => rmSync(dir, { recursive: true, force: true }));
    data = path.join(dir, 'data');
    await makeCatalogIfMissing(data, { tracks, seed: 3, file: path.join(dir, 'catalog.jsonl') });
    console.error('building the index…');
    await buildIndex(data);
  }

  // Texts of `chars` characters: consecutive catalog lyrics, a different starting track for each.
  const catalog = Catalog.open(data);
  const key = benchKey(catalog, 'bench/abuse/shedding');
  const lyrics: string[] = [];
  for (const { value } of catalog.tracks.getRange({ ...everyId(), limit: 5000 })) {
    if (value.has_lyrics) lyrics.push(catalog.getContent('lyrics', value.track_id)?.lyrics_body ?? '');
  }
  await catalog.close();
  if (lyrics.length < 10) throw new Error(`the catalog in ${data} has too few lyrics`);
  const bodies = Array.from({ length: 64 }, (_, i) => {
    let text = '';
    for (let j = i; text.length < chars; j++) text += `${lyrics[j % lyrics.length]}\n`;
    return JSON.stringify({ data: { text: text.slice(0, chars) } });
  });

  const server = await startRefrain(data, ['--index-deadline-ms', String(deadlineMs), '--max-fingerprint-chars', String(Math.max(chars, 20_000))]);
  stops.push(server.stop);
  console.error(`server at ${server.url}`);
  const url = `${server.url}/ws/1.1/track.lyrics.fingerprint.post?apikey=${key}`;

  const results = [];
  for (const level of levels) {
    console.error(`${level} in flight for ${seconds} s…`);
    results.push(await run(level));
  }
  const low = results[0];
  const high = results.at(-1)!;
  const ratio = high.successPerSecond / Math.max(low.successPerSecond, 1e-9);
  const worst503 = Math.max(...results.map((r) => r.busy.p99).filter(Number.isFinite), 0);
  const markdown = [
    `bench/abuse/shedding — ${new Date().toISOString().slice(0, 16)}Z — ${machine()}`,
    `catalog ${args.data ?? `${tracks} generated tracks`}; track.lyrics.fingerprint.post with ${chars.toLocaleString('en')}-character texts; ` +
      `deadline ${deadlineMs} ms; closed-loop clients (${backoffMs} ms pause after a 503); ${seconds} s per level; client and server share the machine`,
    '',
    '| in flight | answers | 200 per second | 200 p50 ms | 200 p99 ms | 503 | 503 p50 ms | 503 p99 ms | other |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.level} | ${r.answers} | ${r.successPerSecond.toFixed(1)} | ${r.ok.p50.toFixed(0)} | ${r.ok.p99.toFixed(0)} | ${r.busy.count} | ` +
        `${r.busy.p50.toFixed(0)} | ${r.busy.p99.toFixed(0)} | ${r.other} |`,
    ),
    '',
    `targets: 503 p99 ≤ ${deadlineMs} ms — ${worst503 <= deadlineMs ? 'met' : 'NOT met'} (${worst503.toFixed(0)} ms); ` +
      `throughput at ${high.level} ≥ 80% of that at ${low.level} — ${ratio >= 0.8 ? 'met' : 'NOT met'} (${(ratio * 100).toFixed(0)}%)`,
  ].join('\n');
  console.log(markdown);
  if (!smoke) writeResult('shedding', markdown, { chars, deadlineMs, backoffMs, seconds, results });

  /** `level` closed-loop clients for `seconds`. */
  async function run(level: number) {
    const agent = new Agent({ connections: level, pipelining: 1, keepAliveTimeout: 30_000 });
    const ok: number[] = [];
    const busy: number[] = [];
    let other = 0;
    const end = performance.now() + seconds * 1000;
    const client = async (i: number) => {
      for (let n = i; performance.now() < end; n += level) {
        const t0 = performance.now();
        try {
          const res = await request(url, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body: bodies[n % bodies.length] });
          await res.body.arrayBuffer();
          const ms = performance.now() - t0;
          if (res.statusCode === 200) ok.push(ms);
          else if (res.statusCode === 503) {
            busy.push(ms);
            if (backoffMs) await new Promise((r) => setTimeout(r, backoffMs));
          } else other++;
        } catch {
          other++;
        }
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: level }, (_, i) => client(i)));
    const elapsed = (performance.now() - t0) / 1000;
    await agent.close();
    return { level, answers: ok.length + busy.length + other, successPerSecond: ok.length / elapsed, ok: percentiles(ok), busy: percentiles(busy), other };
  }
} finally {
  cleanUp();
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99) };
}
