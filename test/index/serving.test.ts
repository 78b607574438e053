/**
 * The index while serving: an import builds a new generation in the background and swaps it in
 * with no failed query; a full queue answers 503 at once instead of waiting; a task that cannot
 * finish within its deadline answers 503 (refused at admission, or stopped); the queue's cost
 * bound refuses long texts (a restart, and a batch past its deadline: serving-restart.test.ts).
 */
import t, { type Test } from 'tap';
import { once } from 'node:events';
import { startTestServer } from '../helpers/server.js';
import { Catalog } from '../../src/catalog/store.js';
import { importFiles } from '../../src/catalog/import.js';
import { writeJsonl } from '../helpers/tmp.js';
import { LYRICS } from '../helpers/fixtures.js';
import { generateCatalog } from '../../src/generate/index.js';
import { Agent, fetch as undiciFetch } from 'undici';

const NEW_LYRICS = 'Brand new words arrive tonight while the server keeps on answering every single question';

t.test('an import while serving: no failed query, and the new generation answers', async (t) => {
  const api = await startTestServer(t);
  const first = api.server.index.generation;
  let stop = false;
  const statuses: number[] = [];
  const load = (async () => {
    while (!stop) {
      const [fp, search] = await Promise.all([
        fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.post?apikey=${api.keys.enterprise}`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: LYRICS } }),
        }),
        fetch(`${api.url}/ws/1.1/track.search?apikey=${api.keys.enterprise}&q_track=full`),
      ]);
      statuses.push(fp.status, search.status);
      await Promise.all([fp.arrayBuffer(), search.arrayBuffer()]);
    }
  })();

  const catalog = Catalog.open(api.data);
  const records = Array.from({ length: 300 }, (_, i) => ({
    type: 'track', track_id: 5000 + i, track_name: `Fresh Song ${i}`, artist_id: 100, artist_name: 'The Fixtures',
    lyrics: { lyrics_body: i === 7 ? NEW_LYRICS : `filler lyrics number ${i} with enough words to index well`, lyrics_language: 'en' },
  }));
  await importFiles(catalog, [writeJsonl(api.data, 'more.jsonl', records)]);
  await catalog.close();

  // The server notices the settled change within two polls, builds in the background and swaps.
  await once(api.server.index, 'generation');
  stop = true;
  await load;
  t.ok(api.server.index.generation > first, `generation ${first} → ${api.server.index.generation}`);
  t.ok(statuses.length > 4, `${statuses.length} queries ran meanwhile`);
  t.same([...new Set(statuses)], [200], 'every query answered 200');

  const found = await fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.post?apikey=${api.keys.enterprise}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: NEW_LYRICS } }),
  }).then((r) => r.json() as Promise<{ message: { body: { track_list: { similarity: number; track: { track_id: number } }[] } } }>);
  t.equal(found.message.body.track_list[0].track.track_id, 5007, 'the imported lyrics are found');
  const searched = await api.get('/ws/1.1/track.search', { apikey: api.keys.basic, q_track: 'fresh song' });
  t.equal(searched.json.message.header.available, 300);
});

/** 40 long fingerprint queries sent together to a server with one worker. */
async function burst(t: Test, flags: string[]) {
  // A catalog big enough that a long query keeps the single worker busy for a while.
  const records = [...generateCatalog({ tracks: 2000, seed: 5 }).lines].map((l) => JSON.parse(l) as unknown);
  const api = await startTestServer(t, { records, flags });
  const lyrics = records.flatMap((r) => ((r as { lyrics?: { lyrics_body: string } }).lyrics?.lyrics_body ?? []));
  const text = lyrics.slice(0, 14).join('\n').slice(0, 19_000);
  // Open every connection first, so the 40 requests reach the server together.
  const agent = new Agent({ connections: 40, pipelining: 0, keepAliveTimeout: 10_000 });
  t.teardown(() => agent.close());
  await Promise.all(Array.from({ length: 40 }, () => undiciFetch(`${api.url}/healthz`, { dispatcher: agent }).then((r) => r.arrayBuffer())));
  const replies = await Promise.all(
    Array.from({ length: 40 }, () =>
      undiciFetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.post?apikey=${api.keys.enterprise}`, {
        dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { text } }),
      }).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), hint: r.headers.get('x-refrain-header-hint'), body: (await r.json()) as { message: { body: unknown } } })),
    ),
  );
  return { api, replies };
}

t.test('a full queue answers 503 at once with a hint and Retry-After', async (t) => {
  const { api, replies } = await burst(t, ['--index-queue', '1']);
  const busy = replies.filter((r) => r.status === 503);
  t.ok(busy.length > 0, `${busy.length} of 40 refused`);
  t.same([...new Set(replies.map((r) => r.status))].sort(), [200, 503], 'admitted ones are answered, the rest refused');
  t.equal(busy[0]?.retry, '1');
  t.match(busy[0]?.hint, /system busy/);
  t.same(busy[0]?.body.message.body, []);
  const metrics = await fetch(`${api.url}/metrics`).then((r) => r.text());
  t.match(metrics, new RegExp(`refrain_index_rejected_busy_total ${busy.length}\\b`), 'the refusals are counted in /metrics');
  t.match(metrics, /refrain_index_generation 1\b/);
  t.match(metrics, /refrain_index_tasks_in_flight 0\b/);
});

t.test('a query that cannot finish within the deadline answers 503: refused at admission or stopped at the deadline', async (t) => {
  // Each query takes the worker milliseconds: the later ones of the burst could not start within
  // 10 ms, and are refused at once (work-queue.ts) rather than queued to fail later.
  const { api, replies } = await burst(t, ['--index-deadline-ms', '10']);
  const late = replies.filter((r) => r.status === 503);
  t.ok(late.length > 0, `${late.length} of 40 past the deadline`);
  t.same([...new Set(replies.map((r) => r.status))].filter((s) => s !== 200), [503], 'nothing else fails');
  t.same(late.filter((r) => !/did not finish within 10 ms|past the 10 ms deadline/.test(r.hint ?? '')), [], 'each says why');
  t.ok(late.every((r) => Number(r.retry) >= 1), 'each with Retry-After');
  const metrics = await fetch(`${api.url}/metrics`).then((r) => r.text());
  const count = (name: string) => Number(new RegExp(`${name} (\\d+)`).exec(metrics)?.[1]);
  t.equal(count('refrain_index_rejected_deadline_total') + count('refrain_index_rejected_busy_total'), late.length, 'counted in /metrics');
  t.match(metrics, /refrain_index_tasks_in_flight 0\b/);
  t.equal((await fetch(`${api.url}/readyz`)).status, 200, 'the server still serves');
});

t.test('the queue is bounded by estimated cost: long texts are refused at admission, in the API error shape', async (t) => {
  // One worker; at most 1,000 characters may wait: each long text finding the worker busy is refused.
  const { api, replies } = await burst(t, ['--index-queue-cost', '1000']);
  const busy = replies.filter((r) => r.status === 503);
  t.ok(busy.length > 0 && busy.length < 40, `${busy.length} of 40 refused`);
  t.same([...new Set(replies.map((r) => r.status))].sort(), [200, 503], 'admitted ones are answered, the rest refused');
  t.match(busy[0]?.hint, /^system busy: .* would add up to 1\d,\d{3} characters of text \(limit 1,000\)/, 'the text (over 10,000 characters) passes the bound');
  t.same(busy.filter((r) => r.hint !== busy[0].hint || r.retry !== '1' || JSON.stringify(r.body.message.body) !== '[]'), [], 'each with that hint, Retry-After: 1 and an empty body');
  const metrics = await fetch(`${api.url}/metrics`).then((r) => r.text());
  t.match(metrics, new RegExp(`refrain_index_rejected_busy_total ${busy.length}\\b`), 'counted in /metrics');
});
