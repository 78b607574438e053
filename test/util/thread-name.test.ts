/** The index pool's threads carry their name for the OS (Linux), which top -H and the benches read. */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { startTestServer } from '../helpers/server.js';

const names = () => readdirSync('/proc/self/task').map((tid) => {
  try {
    return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
});

t.test('pool workers are refrain-index; the main thread keeps its name', { skip: process.platform !== 'linux' && 'Linux only' }, async (t) => {
  const mainName = readFileSync('/proc/thread-self/comm', 'utf8').trim();
  const api = await startTestServer(t);
  const r = await api.get('/ws/1.1/track.search', { q_track: 'love', apikey: api.keys.free });
  t.equal(r.status, 200);
  t.ok(names().includes('refrain-index'), `threads: ${names().join(' ')}`);
  t.equal(readFileSync('/proc/thread-self/comm', 'utf8').trim(), mainName, 'main thread unchanged');
});
