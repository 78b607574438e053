/**
 * track.lyrics.fingerprint.batch.post through the real server: each text's line holds exactly what
 * track.lyrics.fingerprint.post answers for it, bad lines get their own error line, a request wrong
 * as a whole gets the envelope, every text counts against the quota, and a client that goes away
 * mid-stream leaves the server answering.
 */
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import t from 'tap';
import { startTestServer, apiStatus, type TestServer } from '../helpers/server.js';
import { CORPUS_DIR } from '../helpers/tmp.js';

interface CorpusTrack {
  type: string;
  track_id: number;
  lyrics?: { lyrics_body: string };
}

const RECORDS = gunzipSync(readFileSync(path.join(CORPUS_DIR, 'en.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 600)
  .map((l) => JSON.parse(l) as CorpusTrack);
const LONG = RECORDS.filter((r) => r.type === 'track' && (r.lyrics?.lyrics_body.length ?? 0) > 320);

let api: TestServer;
t.before(async () => {
  api = await startTestServer(t, { records: RECORDS });
});

interface Line {
  id: string | number | null;
  status_code: number;
  hint?: string;
  track_list: unknown[];
}

async function batch(body: string, params: Record<string, string | number> = {}, key = api.keys.enterprise, type = 'application/x-ndjson') {
  const qs = new URLSearchParams({ apikey: key, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  const res = await fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.batch.post?${qs}`, { method: 'POST', headers: { 'content-type': type }, body });
  const text = await res.text();
  const ndjson = /ndjson/.test(res.headers.get('content-type') ?? '');
  return {
    res,
    status: apiStatus(res),
    lines: ndjson ? text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line) : [],
    envelope: ndjson || !/json/.test(res.headers.get('content-type') ?? '') ? undefined : (JSON.parse(text) as { message: { header: { status_code: number; hint?: string } } }),
    text,
  };
}

async function single(text: string, params: Record<string, string | number> = {}) {
  const qs = new URLSearchParams({ apikey: api.keys.enterprise, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  const res = await fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.post?${qs}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { text } }) });
  const json = (await res.json()) as { message: { header: { status_code: number; hint?: string }; body: { track_list?: unknown[] } } };
  return { status_code: json.message.header.status_code, hint: json.message.header.hint, track_list: Array.isArray(json.message.body) ? [] : (json.message.body.track_list ?? []) };
}

const ndjson = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');

t.test('each line answers what the single method answers for its text', async (t) => {
  const texts = [
    ...LONG.slice(0, 40).map((r, i) => ({ id: `excerpt-${i}`, text: r.lyrics!.lyrics_body.slice(100, 300) })),
    ...LONG.slice(40, 50).map((r, i) => ({ id: i, text: r.lyrics!.lyrics_body.split('\n').find((l) => l.split(' ').length >= 4) ?? 'three words here' })),
    { id: 'prose', text: 'The quarterly report on drainage works was filed with the county clerk on Tuesday afternoon.' },
    { id: 'short', text: 'two words' },
    { id: 'empty', text: '   ' },
  ];
  for (const params of [{}, { size: 3, limit: 2 }] as Record<string, number>[]) {
    const { status, lines, res } = await batch(ndjson(texts), params);
    t.equal(status, 200);
    t.match(res.headers.get('content-type'), /^application\/x-ndjson/);
    t.equal(lines.length, texts.length, 'one line per text');
    const byId = new Map(lines.map((l) => [l.id, l]));
    t.equal(byId.size, texts.length, 'every id once');
    for (const { id, text } of texts) {
      const expected = await single(text, params);
      const line = byId.get(id)!;
      t.equal(line.status_code, expected.status_code, `status of ${id}`);
      t.same(line.track_list, expected.track_list, `track_list of ${id} (${JSON.stringify(params)})`);
      if (expected.hint) t.equal(line.hint, expected.hint, `hint of ${id}`);
    }
    t.ok(lines.some((l) => l.status_code === 200 && l.track_list.length > 0), 'some texts are found');
  }
});

t.test('lines that cannot be read get their own error line', async (t) => {
  const { status, lines } = await batch(['{"id":"ok","text":"' + LONG[0].lyrics!.lyrics_body.slice(0, 120).replace(/["\\\n]/g, ' ') + '"}', '{not json', '{"id":{"x":1},"text":"a b c d"}', '{"id":"no-text"}', '[1,2]', ''].join('\n'));
  t.equal(status, 200);
  t.equal(lines.length, 5, 'blank lines are skipped');
  const hints = lines.filter((l) => l.status_code === 400).map((l) => l.hint).sort();
  t.same(hints, ['line 2 is not valid JSON: send one {"id": "…", "text": "…"} per line', 'line 3: "id" must be a string or a number', 'line 4: "text" must be a string', 'line 5: "id" must be a string or a number']);
  t.same(lines.find((l) => l.id === 'ok')?.status_code, 200);
});

t.test('a request wrong as a whole gets the envelope, before anything is screened', async (t) => {
  const one = ndjson([{ id: 1, text: 'a b c d e' }]);
  const cases: [string, Awaited<ReturnType<typeof batch>>, number, RegExp][] = [
    ['no lines', await batch('\n\n'), 400, /the body holds no lines/],
    ['too many lines', await batch(ndjson(Array.from({ length: 1001 }, (_, i) => ({ id: i, text: 'a b c' })))), 400, /at most 1,000 texts; this one has 1,001/],
    ['not NDJSON', await batch(one, {}, api.keys.enterprise, 'application/json'), 400, /the body must be NDJSON/],
    ['bad size', await batch(one, { size: 99 }), 400, /size/],
    ['limit above size', await batch(one, { size: 3, limit: 4 }), 400, /^limit must be between 1 and size \(3\)$/],
    ['basic plan', await batch(one, {}, api.keys.basic), 403, /needs the enterprise plan \(this caller has the basic plan\)/],
  ];
  for (const [name, r, status, hint] of cases) {
    t.equal(r.status, status, name);
    t.equal(r.envelope?.message.header.status_code, status, `${name}: an envelope`);
    t.match(r.envelope?.message.header.hint, hint, name);
  }
  const xml = await batch(one, { format: 'xml' });
  t.equal(xml.status, 400, 'format=xml: refused, in XML as asked');
  t.match(xml.text, /<status_code>400<\/status_code>.*<hint>track.lyrics.fingerprint.batch.post answers NDJSON only: leave out format<\/hint>/s);
  const get = await fetch(`${api.url}/ws/1.1/track.lyrics.fingerprint.batch.post?apikey=${api.keys.enterprise}`);
  t.equal(apiStatus(get), 405);
});

t.test('every text counts against the quota', async (t) => {
  const { key } = api.makeKey({ plan: 'enterprise', quota: 5 });
  const texts = LONG.slice(0, 8).map((r, i) => ({ id: i, text: r.lyrics!.lyrics_body.slice(0, 150) }));
  const { status, lines } = await batch(ndjson(texts), {}, key);
  t.equal(status, 200);
  t.equal(lines.filter((l) => l.status_code === 200).length, 5, 'the first five texts are screened');
  const refused = lines.filter((l) => l.status_code === 402);
  t.equal(refused.length, 3, 'the rest are refused, each on its own line');
  t.match(refused[0].hint, /daily quota of 5 requests reached/);
  const after = await batch(ndjson([{ id: 'x', text: 'a b c d' }]), {}, key);
  t.equal(after.status, 402, 'the quota is spent for the next request too');
});

t.test('a client that goes away mid-stream leaves the server answering', async (t) => {
  const texts = Array.from({ length: 400 }, (_, i) => ({ id: i, text: LONG[i % LONG.length].lyrics!.lyrics_body.slice(0, 300) }));
  const body = ndjson(texts);
  const port = new URL(api.url).port;
  await new Promise<void>((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`POST /ws/1.1/track.lyrics.fingerprint.batch.post?apikey=${api.keys.enterprise} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      socket.once('data', () => {
        socket.destroy();
        resolve();
      });
    });
  });
  const after = await single(LONG[0].lyrics!.lyrics_body.slice(0, 200));
  t.equal(after.status_code, 200);
  const r = await batch(ndjson(texts.slice(0, 20)));
  t.equal(r.lines.length, 20, 'the next batch is answered whole');
});

t.test('a request sent on the connection while a batch streams is answered after it, in order', async (t) => {
  const texts = Array.from({ length: 120 }, (_, i) => ({ id: i, text: LONG[i % LONG.length].lyrics!.lyrics_body.slice(0, 250) }));
  const body = ndjson(texts);
  const port = Number(new URL(api.url).port);
  const received = await new Promise<string>((resolve, reject) => {
    let text = '';
    let sentSecond = false;
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST /ws/1.1/track.lyrics.fingerprint.batch.post?apikey=${api.keys.enterprise} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!sentSecond) {
        // The batch has begun answering: the next request arrives while it streams.
        sentSecond = true;
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      }
      if (text.includes('{"status":"ok"}')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  const end = received.indexOf('\r\n0\r\n\r\n');
  t.ok(end > 0, 'the batch ended');
  t.ok(received.indexOf('HTTP/1.1 200 OK', end) > end, 'the second answer follows the end of the batch');
  t.equal(received.split('\n').filter((l) => l.startsWith('{"id":')).length, texts.length, 'every line of the batch came');
});

t.test('a client reading slowly gets every line of a large batch', async (t) => {
  const texts = Array.from({ length: 1000 }, (_, i) => ({ id: i, text: LONG[i % LONG.length].lyrics!.lyrics_body.slice(i % 50, 250 + (i % 50)) }));
  const body = ndjson(texts);
  const port = Number(new URL(api.url).port);
  const received = await new Promise<string>((resolve, reject) => {
    const parts: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST /ws/1.1/track.lyrics.fingerprint.batch.post?apikey=${api.keys.enterprise}&size=20 HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      // Nothing read at first: the kernel's buffers stay small and fill.
      socket.pause();
      setTimeout(() => socket.resume(), 300).unref();
    });
    // One read every few milliseconds: the server's writes find the socket full again and again.
    socket.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      if (chunk.includes('\r\n0\r\n\r\n')) {
        socket.destroy();
        return resolve(Buffer.concat(parts).toString('utf8'));
      }
      socket.pause();
      setTimeout(() => socket.resume(), 5).unref();
    });
    socket.on('close', () => resolve(Buffer.concat(parts).toString('utf8')));
    socket.on('error', reject);
  });
  const head = received.indexOf('\r\n\r\n');
  t.match(received.slice(0, head), /transfer-encoding: chunked/i);
  const lines = dechunk(Buffer.from(received.slice(head + 4))).split('\n').filter(Boolean);
  t.equal(lines.length, texts.length, 'one line per text');
  t.equal(new Set(lines.map((l) => (JSON.parse(l) as Line).id)).size, texts.length, 'every text has its line');
});

/** A chunked body's bytes (RFC 9112 §7.1): chunk sizes and their line ends taken out. */
function dechunk(bytes: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}
