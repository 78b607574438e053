/** Logs are JSON and never hold a key, in access logs or error logs; keys are stored hashed. */
import t from 'tap';
import { Writable } from 'node:stream';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../helpers/server.js';
import { createLogger } from '../../src/log.js';

t.test('no key or secret reaches the logs or the disk in plaintext', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const s = await startTestServer(t, { flags: ['--access-log'], server: { logger: createLogger('debug', sink) } });
  const apikey = s.keys.enterprise;
  await s.get('/ws/1.1/track.get', { track_id: 1, apikey });
  await s.get('/ws/1.1/track.get', { track_id: 1, apikey: 'f'.repeat(32) });
  await s.get('/ws/1.1/track.get', { track_id: 1 }, { headers: { authorization: 'Bearer secret-token-value' } });
  createLogger('info', sink).info({ apikey, nested: { token: 'tok' } }, 'a careless call');
  await new Promise((r) => setImmediate(r));
  const text = lines.join('\n');
  t.ok(lines.length >= 4, 'access lines written');
  for (const line of lines) t.doesNotThrow(() => JSON.parse(line), 'every line is JSON');
  t.notOk(text.includes(apikey), 'the key never appears');
  t.notOk(text.includes('f'.repeat(32)), 'nor a wrong key');
  t.notOk(text.includes('secret-token-value'), 'nor a bearer token');
  t.notOk(text.includes('"tok"'), 'redaction catches careless fields');
  t.match(text, /"key_id":"k_[0-9a-f]+"/, 'the key id identifies the caller');
  t.match(text, /apikey=\[redacted\]/);

  await s.server.close();
  const files = readdirSync(path.join(s.data, 'catalog')).map((f) => path.join(s.data, 'catalog', f));
  for (const file of files) t.notOk(readFileSync(file).includes(Buffer.from(apikey)), `${path.basename(file)} holds no plaintext key`);
});
