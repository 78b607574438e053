/**
 * A replica made by `refrain sync` has no API keys: the docs say so and say how to give it some,
 * and the procedure they give works — `refrain keys create --data <replica>` while the replica
 * serves. The primary's keys and tokens are not accepted by the replica.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCommand } from '../../src/config.js';
import { startServer } from '../../src/app.js';
import { createLogger } from '../../src/log.js';
import { startTestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';
import { execCli as refrain } from '../helpers/cli.js';
import { ROOT } from './markdown.js';



/** The text of a `## ` section of a markdown file. */
function section(file: string, heading: string): string {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

t.test('docs/operations.md says a replica has no API keys and how to give it some', async (t) => {
  const replicas = section('docs/operations.md', 'Feeds and replicas');
  t.match(replicas, /replica made by `refrain sync`[^.]*has no API keys/, 'says the replica has no keys');
  t.match(replicas, /npx refrain keys create [^\n]*--data \/srv\/replica/, 'gives the command that makes a key on the replica');
  t.match(replicas, /key made \(or revoked\) on the primary does not reach the\s+replica/, 'says keys are not shared');
  const design = readFileSync(path.join(ROOT, 'docs/design.md'), 'utf8');
  t.match(design, /a replica made by `refrain sync` has none of its primary's/, 'docs/design.md §6 says it too');
});

t.test('a synced replica starts without keys; keys created on its data directory work while it serves', async (t) => {
  const primary = await startTestServer(t, { flags: ['--no-feeds'] });
  const built = await refrain(['feeds', 'build', '--full', '--json', '--data', primary.data]);
  t.equal(built.code, 0, built.err);

  const replica = tempDir(t);
  const synced = await refrain(['sync', '--from', primary.url, '--apikey', primary.keys.enterprise, '--data', replica, '--json']);
  t.equal(synced.code, 0, synced.err);
  t.match(JSON.parse(synced.out), { applied: [{ full: true, imported: 10 }] });

  const listed = await refrain(['keys', 'list', '--data', replica, '--json']);
  t.equal(listed.code, 0, listed.err);
  t.same(JSON.parse(listed.out), { keys: [] }, 'the replica has no keys');

  const { config } = parseCommand('serve', ['--data', replica, '--port', '0', '--host', '127.0.0.1', '--log-level', 'silent', '--no-feeds', '--index-threads', '1'], {});
  const server = await startServer(config, { logger: createLogger('silent') });
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${server.port}`;
  const status = async (query: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}/ws/1.1/track.get?track_id=1${query}`, { headers });
    await res.arrayBuffer();
    return Number(res.headers.get('x-refrain-header-status'));
  };

  t.equal(await status(`&apikey=${primary.keys.basic}`), 401, "the primary's key is unknown on the replica");
  t.equal(await status(`&apikey=${primary.keys.enterprise}`), 401, "so is the primary's enterprise key");

  // A token from the primary: its client and signing keys are the primary's alone.
  const client = await refrain(['clients', 'create', '--name', 'Partner', '--grant-types', 'client_credentials', '--scopes', 'catalog:read', '--plan', 'basic', '--data', primary.data, '--json']);
  t.equal(client.code, 0, client.err);
  const { client_id, client_secret } = JSON.parse(client.out) as { client_id: string; client_secret: string };
  const tokenRes = await fetch(`${primary.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const onPrimary = await fetch(`${primary.url}/ws/1.1/track.get?track_id=1`, { headers: { authorization: `Bearer ${access_token}` } });
  await onPrimary.arrayBuffer();
  t.equal(onPrimary.headers.get('x-refrain-header-status'), '200', 'the token works on the primary');
  t.equal(await status('', { authorization: `Bearer ${access_token}` }), 401, "the primary's token does not verify on the replica");

  // The documented remedy, while the replica serves.
  const made = await refrain(['keys', 'create', '--plan', 'basic', '--label', 'partner X via replica', '--data', replica, '--json']);
  t.equal(made.code, 0, made.err);
  const { key } = JSON.parse(made.out) as { key: string };
  let answered = 0;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    answered = await status(`&apikey=${key}`);
    if (answered === 200) break;
  }
  t.equal(answered, 200, 'a key made with refrain keys create --data <replica> works on the running replica');
  t.equal(await status(`&apikey=${primary.keys.basic}`), 401, "the primary's keys still do not");
});
