/**
 * Several HTTP threads on one port (ServerOptions.httpThreads; src/fronts.ts, src/front-worker.ts):
 * connections land on both threads, which answer alike; a key's quota holds exactly across them;
 * /metrics counts every thread's requests; no second server can take the port; the server stops
 * cleanly. Every request here is on a fresh connection (Connection: close), so the kernel spreads
 * them and no idle connection holds a thread at the stop.
 */
import t from 'tap';
import net from 'node:net';
import { once } from 'node:events';
import { startTestServer } from '../helpers/server.js';
import { LYRICS } from '../helpers/fixtures.js';
import { authorizationUrl, Browser, createUser, form, registerClient } from '../helpers/oauth.js';
import { parseCommand } from '../../src/config.js';
import { httpThreadsFor, startServer } from '../../src/app.js';
import { createLogger } from '../../src/log.js';

interface Raw {
  status: number;
  headers: string;
  body: string;
}

/** One request on a connection of its own. */
function request(port: number, path: string, body?: { type: string; text: string }): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      const head = body
        ? `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ${body.type}\r\nContent-Length: ${Buffer.byteLength(body.text)}\r\n\r\n${body.text}`
        : `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
      socket.write(head);
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.slice(9, 12)), headers: text.slice(0, split), body: text.slice(split + 4) });
    });
  });
}

const envelopeStatus = (r: Raw) => Number(/x-refrain-header-status: (\d+)/i.exec(r.headers)?.[1] ?? r.status);
/** The body without what changes from one answer to the next (the time taken; whether the matcher had it cached). */
const stable = (body: string) => body.replace(/"execute_time":[0-9.e-]+/g, '').replace(/"cached":[01]/g, '');

t.test('two HTTP threads on one port', async (t) => {
  const api = await startTestServer(t, { server: { httpThreads: 2 } });
  const port = api.server.port;

  await t.test('connections land on both threads', async (t) => {
    const seen = new Set<number>();
    for (let i = 0; i < 40 && seen.size < 2; i++) {
      const r = await request(port, '/healthz');
      t.equal(r.status, 200);
      seen.add((JSON.parse(r.body) as { thread: number }).thread);
    }
    t.same([...seen].sort(), [0, 1], 'thread 0 and thread 1 both answered');
    const ready = await request(port, '/readyz');
    t.equal(ready.status, 200);
    t.match(JSON.parse(ready.body), { status: 'ready', tracks: api.server.catalog.trackCount(), index: { generation: api.server.index.generation } }, 'readiness with the index as the main thread has it');
  });

  await t.test('every thread answers alike, the index and the matcher through the main thread', async (t) => {
    const { basic, enterprise } = api.keys;
    const paths = [
      `/ws/1.1/track.get?apikey=${basic}&track_id=1`,
      `/ws/1.1/track.search?apikey=${basic}&q_track=full%20song`,
      `/ws/1.1/matcher.track.get?apikey=${basic}&q_track=Full%20Song&q_artist=The%20Fixtures`,
      `/ws/1.1/track.get?track_id=1`,
      `/ws/1.1/no.such.method?apikey=${basic}`,
    ];
    for (const path of paths) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => request(port, path)));
      t.equal(new Set(answers.map((a) => stable(a.body))).size, 1, `${path.split('?')[0]}: one answer from every connection`);
    }
    const found = await request(port, `/ws/1.1/track.lyrics.fingerprint.post?apikey=${enterprise}`, { type: 'application/json', text: JSON.stringify({ data: { text: LYRICS } }) });
    t.equal(envelopeStatus(found), 200);
    t.equal((JSON.parse(found.body) as { message: { body: { track_list: { track: { track_id: number } }[] } } }).message.body.track_list[0].track.track_id, 1, 'the fingerprint finds its track');
  });

  await t.test('a quota holds exactly across the threads', async (t) => {
    const { key, keyId } = api.makeKey({ plan: 'basic', quota: 100 });
    const statuses: number[] = [];
    const next = { i: 0 };
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next.i++ < 200) statuses.push(envelopeStatus(await request(port, `/ws/1.1/track.get?apikey=${key}&track_id=1`)));
      }),
    );
    t.equal(statuses.filter((s) => s === 200).length, 100, '100 admitted');
    t.equal(statuses.filter((s) => s === 402).length, 100, '100 refused 402');
    t.equal(api.server.usage.today(keyId, Date.now()), 100, 'the count the main thread writes');
  });

  await t.test('/metrics counts the requests of every thread', async (t) => {
    const total = async () => {
      const text = (await request(port, '/metrics')).body;
      return [...text.matchAll(/^refrain_requests_total\{method="track.get",status="200"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
    };
    const perThread = async () => {
      const text = (await request(port, '/metrics')).body;
      const threads = new Map([...text.matchAll(/^refrain_http_thread_requests_total\{thread="(\d+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
      const all = [...text.matchAll(/^refrain_requests_total\{[^}]*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
      return { threads, all };
    };
    const before = await total();
    const spread = await perThread();
    await Promise.all(Array.from({ length: 20 }, () => request(port, `/ws/1.1/track.get?apikey=${api.keys.basic}&track_id=1`)));
    t.equal((await total()) - before, 20, 'twenty more, whichever thread answered them');
    const after = await perThread();
    t.same([...after.threads.keys()].sort(), ['0', '1'], 'a count per HTTP thread');
    t.equal([...after.threads.values()].reduce((a, b) => a + b, 0), after.all, 'the threads\' counts add up to the total');
    // Twenty fresh connections: the kernel gives both threads some (all on one: a chance of 2 in a million).
    t.ok(['0', '1'].every((n) => after.threads.get(n)! > spread.threads.get(n)!), `both threads answered some (${[...after.threads.values()].join(' / ')})`);
  });

  await t.test('a tracking URL counts once, whichever thread its repeats reach', async (t) => {
    const lyrics = JSON.parse((await request(port, `/ws/1.1/track.lyrics.get?apikey=${api.keys.basic}&track_id=1`)).body) as { message: { body: { lyrics: { pixel_tracking_url: string } } } };
    const pixel = new URL(lyrics.message.body.lyrics.pixel_tracking_url);
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => request(port, pixel.pathname).then((r) => /x-refrain-tracking: (\w+)/i.exec(r.headers)?.[1])));
    t.same(outcomes.filter((o) => o === 'counted').length, 1, 'counted once');
    t.same(outcomes.filter((o) => o === 'repeat').length, 11, 'the rest are repeats');
  });

  await t.test('the login throttle is one for all threads', async (t) => {
    const c = registerClient(api);
    const user = await createUser(api);
    const browser = new Browser();
    const login = form(await browser.get(authorizationUrl(api, c, 'v'.repeat(43))));
    // Sent together, on connections of their own: the guesses spread over both threads.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => browser.post(login.action, { ...login.fields, email: user.email, password: `wrong password ${i}` })),
    );
    const statuses = answers.map((a) => a.status);
    t.equal(statuses.filter((s) => s === 303).length, 5, 'five guesses checked (the limit), whichever thread took them');
    t.equal(statuses.filter((s) => s === 429).length, 7, 'the rest refused');
  });

  await t.test('no second server takes the port', async (t) => {
    for (const httpThreads of [1, 2]) {
      const { config } = parseCommand('serve', ['--data', api.data, '--port', String(port), '--host', '127.0.0.1', '--index-threads', '1'], {});
      await t.rejects(startServer(config, { logger: createLogger('silent'), httpThreads }), { code: 'startup', message: /cannot listen on .*port/ }, `a ${httpThreads}-thread server is refused`);
    }
  });
});

t.test('a one-thread server holds its port against a threaded one', async (t) => {
  const api = await startTestServer(t);
  const { config } = parseCommand('serve', ['--data', api.data, '--port', String(api.server.port), '--host', '127.0.0.1', '--index-threads', '1'], {});
  await t.rejects(startServer(config, { logger: createLogger('silent'), httpThreads: 2 }), { code: 'startup', message: /already in use/ });
});

t.test('--http-threads: auto gives one per four cores, 1 to 8; a number is taken as given', async (t) => {
  t.same([2, 4, 8, 16, 31, 64, 128].map((cores) => httpThreadsFor(0, cores)), [1, 1, 2, 4, 7, 8, 8]);
  t.equal(httpThreadsFor(3, 2), 3);
  t.equal(parseCommand('serve', ['--http-threads', '4'], {}).config.httpThreads, 4);
  t.equal(parseCommand('serve', [], { REFRAIN_HTTP_THREADS: '2' }).config.httpThreads, 2);
  t.throws(() => parseCommand('serve', ['--http-threads', '65'], {}), { message: /--http-threads/ });
});

t.test('a stop closes kept-alive connections after their next answer, so the threads end promptly', async (t) => {
  const api = await startTestServer(t, { server: { httpThreads: 2 } });
  const socket = net.connect(api.server.port, '127.0.0.1');
  await once(socket, 'connect');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const closed = once(socket, 'close');
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  while (!text.includes('"status":"ok"')) await new Promise((r) => setTimeout(r, 10));
  const started = performance.now();
  const stopping = api.server.close();
  await new Promise((r) => setTimeout(r, 200));
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  await closed;
  t.equal(text.split('"status":"ok"').length - 1, 2, 'the request sent during the stop is answered');
  t.match(text, /connection: close/i, 'with Connection: close');
  await stopping;
  t.ok(performance.now() - started < 5_000, `stopped in ${Math.round(performance.now() - started)} ms, not after uWS's idle timeout`);
});
