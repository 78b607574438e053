/**
 * The index while serving, continued from serving.test.ts (split to keep each file well inside the
 * runner's time limit): a restart loads the built generation instead of rebuilding it, a generation
 * of another layout is rebuilt, and a batch task past its deadline answers the texts left 503.
 */
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';
import { currentGeneration } from '../../src/index/store/layout.js';
import { parseCommand } from '../../src/config.js';
import { startServer } from '../../src/app.js';
import { createLogger } from '../../src/log.js';
import { generateCatalog } from '../../src/generate/index.js';

t.test('a restart loads the built generation without rebuilding it', async (t) => {
  const api = await startTestServer(t);
  const dir = currentGeneration(api.data);
  const generation = api.server.index.generation;
  await api.server.close();
  const { config } = parseCommand('serve', ['--data', api.data, '--port', '0', '--host', '127.0.0.1', '--index-threads', '1'], {});
  const again = await startServer(config, { logger: createLogger('silent') });
  t.teardown(() => again.close());
  t.equal(again.index.generation, generation, 'the same generation is served');
  t.equal(currentGeneration(api.data), dir, 'no new generation was written');
  const ready = await fetch(`http://127.0.0.1:${again.port}/readyz`).then((r) => r.json() as Promise<{ index: { generation: number; lyrics: number } }>);
  t.equal(ready.index.generation, generation);
  t.ok(ready.index.lyrics > 0);
});

t.test('a generation written with another segment layout is rebuilt at start, not misread', async (t) => {
  const api = await startTestServer(t);
  const dir = currentGeneration(api.data)!;
  await api.server.close();
  const manifestFile = path.join(dir, 'manifest.json');
  writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replace(/"format": \d+/, '"format": 1'));
  t.equal(currentGeneration(api.data), undefined, 'an old layout does not count as a generation');
  const { config } = parseCommand('serve', ['--data', api.data, '--port', '0', '--host', '127.0.0.1', '--index-threads', '1'], {});
  const again = await startServer(config, { logger: createLogger('silent') });
  t.teardown(() => again.close());
  t.ok(again.index.generation > 1, `rebuilt as generation ${again.index.generation}`);
  const r = await fetch(`http://127.0.0.1:${again.port}/ws/1.1/track.search?q_track=full&apikey=${api.keys.basic}`).then((x) => x.json() as Promise<{ message: { header: { available: number } } }>);
  t.equal(r.message.header.available, 2);
});

t.test('a batch whose task passes its deadline answers the texts left 503, counted as the single method counts them', async (t) => {
  const records = [...generateCatalog({ tracks: 2000, seed: 5 }).lines].map((l) => JSON.parse(l) as unknown);
  // The TypeScript kernel: the native one screens a task of these texts well within 10 ms.
  const api = await startTestServer(t, { records, flags: ['--index-deadline-ms', '10', '--engine', 'ts'] });
  const lyrics = records.flatMap((r) => ((r as { lyrics?: { lyrics_body: string } }).lyrics?.lyrics_body ?? []));
  // Sixteen texts of 900 characters make one task, longer than 10 ms on one worker (TypeScript kernel).
  const body = Array.from({ length: 64 }, (_, i) => JSON.stringify({ id: i, text: lyrics.slice(i, i + 3).join('\n').slice(0, 900) })).join('\n');
  const res = await fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.batch.post?apikey=${api.keys.enterprise}`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body });
  const lines = (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: number; status_code: number; hint?: string });
  t.equal(lines.length, 64, 'every text has its line');
  const late = lines.filter((l) => /took its task past the deadline/.test(l.hint ?? ''));
  t.ok(late.length > 0, `${late.length} texts left unscreened inside a task past its deadline`);
  t.ok(late.every((l) => l.status_code === 503 && /^this text was not screened \(system busy: .*\); send it again$/.test(l.hint!)), 'each 503, saying so');
  const metrics = await fetch(`${api.url}/metrics`).then((r) => r.text());
  t.ok(Number(/refrain_index_rejected_deadline_total (\d+)/.exec(metrics)?.[1]) >= late.length, 'counted in /metrics');
});
