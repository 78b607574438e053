import t from 'tap';
import { helpText, optionsMarkdown, parseCommand } from '../src/config.js';
import { RefrainError } from '../src/errors.js';

t.test('flags win over the environment, which wins over defaults', async (t) => {
  t.equal(parseCommand('serve', [], {}).config.port, 8080);
  t.equal(parseCommand('serve', [], { PORT: '9000' }).config.port, 9000);
  t.equal(parseCommand('serve', ['--port', '9100'], { PORT: '9000' }).config.port, 9100);
  t.equal(parseCommand('serve', ['--port=9200'], {}).config.port, 9200);
  t.equal(parseCommand('import', ['a.jsonl'], { REFRAIN_DATA: '/srv/refrain' }).config.data, '/srv/refrain');
  const { config, positionals } = parseCommand('import', ['--strict', 'a.jsonl', 'b.jsonl.gz'], {});
  t.equal(config.strict, true);
  t.same(positionals, ['a.jsonl', 'b.jsonl.gz']);
  t.equal(parseCommand('serve', ['--http-status', 'mirror'], {}).config.httpStatus, 'mirror');
  t.equal(parseCommand('serve', [], {}).config.httpStatus, '200');
  t.equal(parseCommand('keys create', ['--country', 'it'], {}).config.country, 'IT');
});

t.test('errors name the flag', async (t) => {
  t.throws(() => parseCommand('serve', ['--port', '70000'], {}), new RefrainError('usage', '--port (or PORT): Too big: expected number to be <=65535'));
  t.throws(() => parseCommand('serve', ['--colour'], {}), /unknown option --colour for "serve"/);
  t.throws(() => parseCommand('keys create', ['--plan', 'gold'], {}), /--plan: /);
  t.throws(() => parseCommand('serve', ['--port'], {}), /--port needs a value/);
});

t.test('help and the docs table come from the same schema', async (t) => {
  t.match(helpText('serve'), /--port <value> +TCP port to listen on .*\(default: 8080\) \[env PORT\]/);
  t.match(helpText('import'), /--strict +abort on the first bad line/);
  t.match(optionsMarkdown(), /\| `--data` \| `REFRAIN_DATA` \| `"\.\/data"` \| serve, import, index, keys create, keys list, keys revoke, [^|]*\busers create\b[^|]*\|/);
});

t.test('docs/configuration.md is current (npm run docs:config)', async (t) => {
  const { readFileSync } = await import('node:fs');
  const { configurationDoc } = await import('../src/config-doc.js');
  const committed = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
  t.equal(committed, configurationDoc());
});
