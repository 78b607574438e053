/** Listening: a second server on a port already taken refuses to start instead of sharing it. */
import t from 'tap';
import { parseCommand } from '../../src/config.js';
import { startServer } from '../../src/app.js';
import { isError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { startTestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';
import { createServer } from 'node:net';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

t.test('a second server on the same port fails with a clear message', async (t) => {
  // A fixed port: uWS shares a port it bound by number, not one it was given for port 0.
  const first = await startTestServer(t, { flags: ['--port', String(await freePort())] });
  const data = tempDir(t);
  const { config } = parseCommand('serve', ['--data', data, '--port', String(first.server.port), '--host', '127.0.0.1', '--index-threads', '1', '--no-feeds'], {});
  const second = startServer(config, { logger: createLogger('silent') });
  second.then((s) => t.teardown(() => s.close()), () => undefined);
  const error = await second.then(() => undefined, (e: unknown) => e);
  t.ok(isError(error, 'startup'), 'a startup error: shown to the operator without a stack trace');
  t.match((error as Error | undefined)?.message, new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${first.server.port}: port ${first.server.port} is already in use`));
  // The first server still answers every request: nothing was shared.
  for (let i = 0; i < 20; i++) t.equal((await first.get('/healthz')).status, 200);
});
