/**
 * Unread answers do not pile up in memory (issue 11, item 1): a connection that pipelines requests
 * and reads nothing gets no more than its socket takes; then it is closed. bench/abuse/pipeline-flood
 * measures the memory and /healthz latency of the full repro.
 */
import t from 'tap';
import net from 'node:net';
import { startTestServer } from '../helpers/server.js';
import { statusesOf } from '../helpers/raw.js';

const REQUESTS = 300;

t.test('a client pipelining requests without reading is cut off, the server stays responsive', async (t) => {
  const s = await startTestServer(t);
  const socket = net.connect(s.server.port, '127.0.0.1');
  socket.pause(); // reads nothing: the answers (150 KB each) stay on the server's side
  let text = '';
  let closed = false;
  socket.on('data', (d) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  t.teardown(() => socket.destroy());
  socket.write('GET /ws/1.1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(REQUESTS));

  await new Promise((r) => setTimeout(r, 1000));
  const started = performance.now();
  t.equal((await s.get('/healthz')).status, 200, 'other clients are answered meanwhile');
  t.ok(performance.now() - started < 1000, '/healthz is not stuck behind the flood');

  socket.resume(); // now read what the server kept for this connection
  const deadline = Date.now() + 20_000;
  while (!closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const answered = statusesOf(text).length;
  t.ok(closed, 'the server closed the flooding connection');
  t.ok(answered < REQUESTS, `only what the socket took was answered (${answered} of ${REQUESTS})`);
  t.ok(text.length < 20 * 1024 * 1024, `the server held no more than the socket buffers (${(text.length / 1e6).toFixed(1)} MB)`);
});
