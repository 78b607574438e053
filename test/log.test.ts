/** Log output (issue 11 #18): readable lines on a terminal, JSON otherwise, JSON to --log-file. */
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger, logDestination, prettyLine } from '../src/log.js';
import { tempDir } from './helpers/tmp.js';

/** A stand-in for process.stdout that records what is written. */
function fakeStdout(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const out = { isTTY, text: '', write(s: string) { out.text += s; return true; } };
  return out as unknown as NodeJS.WriteStream & { text: string };
}

t.test('prettyLine: time, level, message and fields; no service/pid/hostname; errors by message', async (t) => {
  const time = new Date(2026, 0, 2, 3, 4, 5).getTime();
  t.equal(
    prettyLine(JSON.stringify({ level: 30, time, service: 'refrain', pid: 1, hostname: 'h', port: 8080, url: 'http://x', msg: 'listening' })),
    '03:04:05 INFO  listening  port=8080 url=http://x',
  );
  t.equal(
    prettyLine(JSON.stringify({ level: 50, time, feed: { id: 2 }, err: { message: 'disk full', stack: 'Error: disk full\n    at x' }, msg: 'feed failed' })),
    '03:04:05 ERROR feed failed  feed={"id":2} err="disk full"',
  );
  t.equal(prettyLine('not json'), 'not json');
});

t.test('auto: readable on a terminal, JSON (pino default) otherwise; json and pretty force it', async (t) => {
  const tty = fakeStdout(true);
  const logger = createLogger('info', logDestination({ format: 'auto' }, tty));
  logger.info({ port: 1 }, 'listening');
  t.match(tty.text, /^\d\d:\d\d:\d\d INFO  listening  port=1\n$/);
  t.equal(logDestination({ format: 'auto' }, fakeStdout(false)), undefined, 'not a terminal: JSON on stdout');
  t.equal(logDestination({ format: 'json' }, fakeStdout(true)), undefined, '--log-format json on a terminal');
  const forced = fakeStdout(false);
  createLogger('info', logDestination({ format: 'pretty' }, forced)).warn('slow');
  t.match(forced.text, /^\d\d:\d\d:\d\d WARN  slow\n$/);
});

t.test('--log-file: JSON lines appended to the file, nothing on stdout', async (t) => {
  const file = path.join(tempDir(t), 'refrain.log');
  const tty = fakeStdout(true);
  const logger = createLogger('info', logDestination({ file, format: 'auto' }, tty));
  logger.info({ port: 1 }, 'listening');
  logger.info('second');
  logger.flush();
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { msg: string; port?: number });
  t.match(lines, [{ msg: 'listening', port: 1 }, { msg: 'second' }]);
  t.equal(tty.text, '');
  let error: unknown;
  try {
    logDestination({ file: path.join(file, 'nested', 'x.log'), format: 'auto' });
  } catch (e) {
    error = e;
  }
  t.match((error as Error)?.message, /^cannot write the log file \S*x\.log: a part of the path is not a directory$/, 'an unwritable file: one line');
});
