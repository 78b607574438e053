/**
 * `refrain loadtest` against the real server: discovery through the API, the default mix, the
 * report (terminal, JSON, HTML), the fingerprint check, refusals a key's plan causes, the quota
 * warning and header.
 */
import t from 'tap';
import { generateCatalog } from '../../src/generate/index.js';
import { runLoadtest, type LoadtestOptions } from '../../src/loadtest/run.js';
import { htmlReport } from '../../src/loadtest/html.js';
import { summaryText } from '../../src/loadtest/report.js';
import { isError } from '../../src/errors.js';
import { startTestServer } from '../helpers/server.js';

const records = [...generateCatalog({ tracks: 400, seed: 5 }).lines].map((line) => JSON.parse(line) as unknown);
const api = await startTestServer(t, { records });

const options = (over: Partial<LoadtestOptions>): LoadtestOptions => ({
  target: api.url,
  credentials: { apikey: api.keys.enterprise },
  allowRemote: false,
  mix: 'fingerprint=40,track.get=30,track.search=20,matcher.track.get=10',
  durationSeconds: 3,
  rate: 40,
  timeoutSeconds: 10,
  discoverTracks: 200,
  discoverLyrics: 30,
  seed: 1,
  ...over,
});

t.test('the default mix in an open loop: every method answered, the report complete', async (t) => {
  const warnings: string[] = [];
  const report = await runLoadtest(options({}), { warn: (w) => warnings.push(w) });
  t.equal(report.mode, 'open');
  t.equal(report.rate, 40);
  t.ok(report.discovery.tracks >= 200, `${report.discovery.tracks} tracks discovered`);
  t.equal(report.discovery.lyrics, 30);
  t.same(report.methods.map((m) => m.method).sort(), ['fingerprint', 'matcher.track.get', 'track.get', 'track.search']);
  t.equal(report.overall.requests, 120, 'rate × duration');
  for (const m of report.methods) {
    t.equal(m.http['200'], m.requests, `${m.method}: HTTP 200 throughout`);
    t.ok(m.latency.p50 > 0 && m.latency.p99 >= m.latency.p50 && m.latency.max >= m.latency.p99, `${m.method}: percentiles ordered`);
    t.ok(m.histogram.length > 10, `${m.method}: encoded histogram`);
  }
  t.equal(report.methods.find((m) => m.method === 'track.get')!.envelope['200'], report.methods.find((m) => m.method === 'track.get')!.requests);
  const checks = report.methods.find((m) => m.method === 'fingerprint')!.checks!;
  t.ok(checks.exact && checks.exact.checked > 0, 'exact excerpts checked');
  t.equal(checks.exact.top1, checks.exact.checked, 'an exact excerpt finds its source first');
  t.same(Object.keys(checks), ['exact', 'noisy', 'embedded', 'line'].filter((v) => v in checks), 'in the variants\' order');
  t.ok(report.series.length >= 2, 'a time series');
  // The generator's own lag depends on how busy the machine is (tests run in parallel on 2 cores):
  // that warning says so about the machine, not about the key or the server.
  t.same(
    warnings.filter((w) => !w.startsWith('the load generator fell behind its schedule')),
    [],
    'no warning for an enterprise key at 40 req/s',
  );

  const text = summaryText(report);
  t.match(text, /open loop at 40 req\/s/);
  t.match(text, /^fingerprint +\d+/m);
  t.match(text, /fingerprint answers that found the text's source track: exact 100\.0% first/);
  const html = htmlReport(report);
  t.match(html, /^<!doctype html>/);
  t.equal(html.match(/<svg /g)?.length, 2 + report.methods.length, 'two time plots and a histogram per method');
  t.notMatch(html, /<script|https?:\/\/(?!127\.0\.0\.1)/, 'self-contained: no script, nothing fetched');
  t.same(JSON.parse(JSON.stringify(report)).overall, report.overall, 'JSON-serialisable');
});

t.test('closed loop and the ramp', async (t) => {
  const closed = await runLoadtest(options({ rate: undefined, connections: 2, durationSeconds: 2, mix: 'track.get=1' }));
  t.equal(closed.mode, 'closed');
  t.ok(closed.overall.requests > 20, `${closed.overall.requests} requests`);
  t.equal(closed.rate, undefined);

  const ramp = await runLoadtest(options({ rate: 80, mix: 'track.get=1', durationSeconds: 30, ramp: { sloMs: 2000, stepSeconds: 2, from: 40 } }));
  t.equal(ramp.mode, 'ramp');
  t.same(ramp.ramp!.steps.map((s) => s.rate), [40, 60, 80], 'up by half to the ceiling, never beyond');
  t.equal(ramp.ramp!.capacity, 80);
  t.equal(ramp.ramp!.open, true);
  t.match(summaryText(ramp), /capacity: 80 req\/s of this mix with p99 ≤ 2000 ms \(at least: the search stopped at the --rate ceiling/);
});

t.test('stopped early (Ctrl-C): the load ends and what was measured is reported', async (t) => {
  const stop = new AbortController();
  const warnings: string[] = [];
  const started = performance.now();
  setTimeout(() => stop.abort(), 1500);
  const report = await runLoadtest(options({ durationSeconds: 30, mix: 'track.get=1', signal: stop.signal }), { warn: (w) => warnings.push(w) });
  t.ok(performance.now() - started < 10_000, 'well before --duration');
  t.ok(report.overall.requests > 0 && report.overall.requests < 30 * 40, `${report.overall.requests} requests`);
  t.match(warnings.join('\n'), /stopped by the operator after \d+\.\d s of 30 s/);
});

t.test('a key whose plan cannot call a method of the mix is refused before the run', async (t) => {
  try {
    await runLoadtest(options({ credentials: { apikey: api.keys.free } }));
    t.fail('ran');
  } catch (e) {
    t.ok(isError(e, 'forbidden'));
    t.match((e as { hint: string }).hint, /refuses track\.lyrics\.fingerprint\.post to these credentials \(403: .*enterprise plan.*take it out of --mix/);
  }
  try {
    await runLoadtest(options({ credentials: { apikey: 'no-such-key' } }));
    t.fail('ran');
  } catch (e) {
    t.match((e as { hint: string }).hint, /chart\.tracks\.get \(discovering the catalog\): the target answered 401/);
  }
});

t.test('a key with a quota: the header, and a warning when the run would spend it', async (t) => {
  const { key } = api.makeKey({ plan: 'basic', quota: 300 });
  const first = await api.get('/ws/1.1/track.get', { track_id: 100000001, apikey: key });
  t.equal(first.headers.get('x-refrain-quota-remaining'), '299');
  const unlimited = await api.get('/ws/1.1/track.get', { track_id: 100000001, apikey: api.keys.enterprise });
  t.equal(unlimited.headers.get('x-refrain-quota-remaining'), null, 'no quota, no header');

  const warnings: string[] = [];
  const report = await runLoadtest(options({ credentials: { apikey: key }, mix: 'track.get=1', rate: 200, durationSeconds: 2, discoverLyrics: 1 }), { warn: (w) => warnings.push(w) });
  t.match(warnings[0], /this run may send up to 400 requests; the key has \d+ left today \(402 after that\)/);
  t.ok(report.quota!.before < 299 && report.quota!.before > 200, `${report.quota!.before} left after discovery`);
  t.equal(report.quota!.after, 0);
  t.ok((report.methods[0].envelope['402'] ?? 0) > 0, '402 once spent');
  const spent = await api.get('/ws/1.1/track.get', { track_id: 100000001, apikey: key });
  t.equal(spent.status, 402);
  t.equal(spent.headers.get('x-refrain-quota-remaining'), '0');
});
