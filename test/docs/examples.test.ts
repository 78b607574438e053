/**
 * Every example request in README.md and docs/*.md works on the demo catalog: the test starts
 * `refrain serve --demo` (what `npm start` runs) on an empty data directory and sends each example.
 *
 * What counts as an example request:
 * - a `curl …` command in a fenced code block (after an optional `$ ` prompt; `\` continues a line).
 *   It must answer HTTP 200 and, on /ws/1.1/, header status 200, and a list it returns must not be
 *   empty; an example that shows an error says so at its end: `# error example: 404` (then that
 *   status is expected instead: in the envelope on /ws/1.1/, where HTTP stays 200 but for 413, 429
 *   and 503, and as the HTTP status elsewhere);
 * - an inline `GET /ws/1.1/…` span: it must answer 200 too (with the demo key added);
 * - any other inline `GET /path` or `POST /path` span names an endpoint: it must exist (no 404 or
 *   405, nothing ≥ 500), whatever parameters it would need.
 *
 * Placeholders an example may use: `http://localhost:8080` (the server), `<demo key>` (the demo's
 * enterprise key), `<key>` (printed by the latest `refrain keys create` line before it in the same
 * file, which the test runs), `<client_id>` and `<client_secret>` (the latest `refrain clients
 * create` line, likewise), `<access token>` (the `access_token` of the latest example's answer).
 * Anything else elided (`…`, `<…>`) fails: an example must be runnable as written. Every documented
 * `refrain keys create` and `refrain clients create` line is run (on the demo's data directory), so
 * those command lines are checked too.
 */
import t, { type Test } from 'tap';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Agent, fetch } from 'undici';
import { tempDir } from '../helpers/tmp.js';
import { jsonOrUndefined } from '../helpers/server.js';
import { docs, lines, ROOT } from './markdown.js';

// One connection per example (no keep-alive): an example must not depend on the one before it, nor
// fail on a connection the server closed after an earlier example's error answer.
const dispatcher = new Agent({ pipelining: 0 });
const exec = promisify(execFile);
t.teardown(() => dispatcher.close());
// Making the demo (generating, importing and indexing 20,000 tracks, as `npm start` does) is most of
// this file's time: about half a minute on an idle 2-core machine. A loaded machine may take
// several times that; the bound is generous so it does not fail the file.
t.setTimeout(600_000);

const BIN = path.join(ROOT, 'bin/refrain.js');
const DOC_BASE = /https?:\/\/(?:localhost|127\.0\.0\.1):8080/g;

interface Example {
  where: string;
  kind: 'curl' | 'get' | 'endpoint' | 'setup';
  /** The command (curl, setup) or the `METHOD /path` of a span. */
  text: string;
  /** The status an error example documents; 200 otherwise. */
  expect: number;
}

/** Shell words of a command line: quotes, backslash escapes and a trailing `# comment`. */
export function shellWords(line: string): { words: string[]; comment: string } {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '$' && line[i + 1] === "'") {
      // $'…' (bash's ANSI-C quoting): \n, \t, \\ and \' are the escapes the docs use.
      let j = i + 2;
      let s = '';
      while (j < line.length && line[j] !== "'") {
        if (line[j] === '\\') {
          const e = line[++j];
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        } else s += line[j];
        j++;
      }
      if (j >= line.length) throw new Error(`unclosed $' in: ${line}`);
      word = (word ?? '') + s;
      i = j + 1;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && '"\\$`'.includes(line[j + 1])) j++;
        s += line[j++];
      }
      if (j >= line.length) throw new Error(`unclosed " in: ${line}`);
      word = (word ?? '') + s;
      i = j + 1;
    } else if (c === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i += 2;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === '#' && word === undefined) {
      return { words, comment: line.slice(i + 1).trim() };
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return { words, comment: '' };
}

function examplesOf(name: string, text: string): Example[] {
  const out: Example[] = [];
  const all = lines(text);
  for (let i = 0; i < all.length; i++) {
    const line = all[i];
    const where = `${name}:${line.n}`;
    if (line.fenced) {
      let command = line.text.replace(/^\s*(\$\s+)?/, '');
      while (command.endsWith('\\') && i + 1 < all.length && all[i + 1].fenced) command = `${command.slice(0, -1)} ${all[++i].text.trim()}`;
      const kind = /^curl\s/.test(command) ? 'curl' : /^(npx\s+)?refrain\s+(keys|clients)\s+create\b/.test(command) ? 'setup' : undefined;
      if (!kind) continue;
      const marked = /#\s*error example:\s*(\d{3})\b/.exec(command);
      out.push({ where, kind, text: command, expect: marked ? Number(marked[1]) : 200 });
      continue;
    }
    for (const m of line.text.matchAll(/`(GET|POST) (\/[^`\s]*)`/g)) {
      const kind = m[1] === 'GET' && m[2].startsWith('/ws/1.1/') ? 'get' : 'endpoint';
      out.push({ where, kind, text: `${m[1]} ${m[2]}`, expect: 200 });
    }
  }
  return out;
}

const EXAMPLES = docs().map((d) => ({ doc: d.name, examples: examplesOf(d.name, d.text) }));

/** Start `refrain serve --demo` on an empty data directory; resolves with its URL and data directory. */
async function startDemo(t: Test): Promise<{ url: string; data: string; child: ChildProcess }> {
  const data = tempDir(t, 'refrain-demo-');
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--demo', '--data', data, '--port', '0', '--host', '127.0.0.1', '--no-feeds', '--index-threads', '1', '--index-deadline-ms', '15000'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    let log: { msg?: string; port?: number };
    try {
      log = JSON.parse(line) as typeof log;
    } catch {
      continue;
    }
    if (log.msg === 'listening' && log.port) return { url: `http://127.0.0.1:${log.port}`, data, child };
  }
  throw new Error(`serve --demo did not start:\n${stderr}`);
}

interface State {
  demoKey: string;
  data: string;
  url: string;
  values: Map<string, string>;
}

/** Replace the documented placeholders; anything still elided is an error. */
function fill(word: string, state: State, where: string): string {
  let out = word.replace(DOC_BASE, state.url).replace(/<demo key>/g, state.demoKey);
  out = out.replace(/<(key|client_id|client_secret|access token)>/g, (all, name: string) => {
    const value = state.values.get(name);
    if (value === undefined) throw new Error(`${where}: ${all} is used before any example makes it (a refrain keys/clients create line, or a token answer)`);
    return value;
  });
  const elided = /…|<[^<>]*>/.exec(out);
  if (elided) throw new Error(`${where}: "${elided[0]}" in an example request: write a value that exists in the demo catalog`);
  return out;
}

/** Run a `refrain keys create` / `refrain clients create` line of the docs with the real CLI. */
async function runSetup(example: Example, state: State): Promise<void> {
  const { words } = shellWords(example.text);
  const args = words.slice(words.indexOf('refrain') + 1);
  const data = args.indexOf('--data');
  if (data >= 0) args.splice(data, 2); // the docs' /srv/… becomes the demo's data directory
  if (!args.includes('--json')) args.push('--json');
  let stdout: string;
  try {
    ({ stdout } = await exec(process.execPath, [BIN, ...args, '--data', state.data], { encoding: 'utf8' }));
  } catch (e) {
    const failed = e as { code: number; stderr: string };
    throw new Error(`${example.where}: refrain ${args.join(' ')} exited ${failed.code}: ${failed.stderr}`);
  }
  const made = JSON.parse(stdout) as { key?: string; client_id?: string; client_secret?: string };
  if (args[0] === 'keys') state.values.set('key', made.key!);
  else {
    state.values.set('client_id', made.client_id!);
    state.values.set('client_secret', made.client_secret!);
  }
}

interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The request a curl command line sends (the options the docs use; others fail the test). */
function curlRequest(example: Example, state: State): Request {
  const { words } = shellWords(example.text);
  const req: Request = { method: '', url: '', headers: {} };
  const data: string[] = [];
  let head = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    const next = () => {
      if (i + 1 >= words.length) throw new Error(`${example.where}: ${w} needs a value`);
      return fill(words[++i], state, example.where);
    };
    if (['-s', '--silent', '-S', '-sS', '-i', '--include', '-v', '-N', '--no-buffer', '-sN'].includes(w)) continue;
    else if (w === '-X' || w === '--request') req.method = next();
    else if (w === '-H' || w === '--header') {
      const h = next();
      const colon = h.indexOf(':');
      req.headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (w === '-d' || w === '--data' || w === '--data-raw' || w === '--data-binary') data.push(next());
    else if (w === '-u' || w === '--user') req.headers.authorization = `Basic ${Buffer.from(next()).toString('base64')}`;
    else if (w === '-I' || w === '--head') head = true;
    else if (w.startsWith('-')) throw new Error(`${example.where}: the test does not know the curl option ${w}`);
    else if (req.url) throw new Error(`${example.where}: two URLs in one example`);
    else req.url = fill(w, state, example.where);
  }
  if (!req.url.startsWith(state.url)) throw new Error(`${example.where}: the example's URL is not http://localhost:8080/…: ${req.url}`);
  if (data.length) {
    req.body = data.join('&');
    req.headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  req.method ||= head ? 'HEAD' : data.length ? 'POST' : 'GET';
  return req;
}

interface Answer {
  status: number;
  headerStatus: number | undefined;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function send(req: Request): Promise<Answer> {
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, redirect: 'manual', dispatcher });
  const text = await res.text();
  const json = jsonOrUndefined(text);
  const header = res.headers.get('x-refrain-header-status');
  return { status: res.status, headerStatus: header === null ? undefined : Number(header), text, json };
}

/** The lists of an envelope's body (`track_list`, `artist_list`, …). */
function listsOf(body: unknown): Array<[string, unknown[]]> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.entries(body).filter((e): e is [string, unknown[]] => e[0].endsWith('_list') && Array.isArray(e[1]));
}

t.test('the docs hold example requests, including the ones the README walks through', async (t) => {
  const readme = EXAMPLES.find((e) => e.doc === 'README.md')!.examples;
  t.ok(readme.filter((e) => e.kind === 'curl').length >= 8, 'README.md has curl examples');
  t.ok(readme.some((e) => /matcher\.track\.get/.test(e.text)), 'the matcher example is among them');
  t.ok(EXAMPLES.some((d) => d.examples.some((e) => e.expect !== 200)), 'an error example is marked as one');
  t.same(shellWords(`curl -s 'a b' "c\\"d" e\\ f # error example: 404`), { words: ['curl', '-s', 'a b', 'c"d', 'e f'], comment: 'error example: 404' });
  t.same(shellWords(`curl --data-binary $'{"a":"x\\\\ny"}\\n{"b":1}'`).words, ['curl', '--data-binary', '{"a":"x\\ny"}\n{"b":1}'], "$'…' quoting");
});

t.test('every example request in README.md and docs/*.md works on the demo catalog', async (t) => {
  if (!existsSync(path.join(ROOT, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run npm run build first (npm test does)');
  const { url, data } = await startDemo(t);
  const demoKey = readFileSync(path.join(data, 'demo-key.txt'), 'utf8').trim();
  t.match(demoKey, /^[0-9a-f]{32}$/, 'the demo wrote its key');

  for (const { doc, examples } of EXAMPLES) {
    const state: State = { demoKey, data, url, values: new Map() };
    for (const example of examples) {
      const label = `${example.where}: ${example.text.length > 110 ? `${example.text.slice(0, 107)}…` : example.text}`;
      if (example.kind === 'setup') {
        await runSetup(example, state);
        continue;
      }
      await t.test(label, async (t) => {
        if (example.kind === 'endpoint') {
          const [method, target] = example.text.split(' ');
          const pathOnly = target.split('?')[0];
          if (/[…<>{}|]/.test(pathOnly)) return t.pass('a pattern, not a path');
          const answer = await send({ method, url: `${url}${pathOnly}`, headers: {}, body: method === 'POST' ? '' : undefined });
          const status = answer.headerStatus ?? answer.status;
          t.ok(status !== 404 && status !== 405 && status < 500, `${method} ${pathOnly} exists (answered ${answer.status}, header ${answer.headerStatus})`);
          return;
        }
        let req: Request;
        if (example.kind === 'get') {
          const target = fill(example.text.slice(4), state, example.where);
          const u = new URL(`${url}${target}`);
          if (!u.searchParams.has('apikey')) u.searchParams.set('apikey', demoKey);
          req = { method: 'GET', url: u.href, headers: {} };
        } else req = curlRequest(example, state);

        const answer = await send(req);
        const context = `${req.method} ${req.url.replace(state.url, '')} → HTTP ${answer.status}: ${answer.text.slice(0, 300)}`;
        const api = new URL(req.url).pathname.startsWith('/ws/1.1/') && answer.headerStatus !== undefined;
        // /ws/1.1/ answers HTTP 200 whatever their status, but for the few that keep theirs (docs/api.md).
        const http = api && ![413, 429, 503].includes(example.expect) ? 200 : example.expect;
        t.equal(answer.status, http, `HTTP ${http}`, { context });
        if (api) {
          t.equal(answer.headerStatus, example.expect, `header status ${example.expect}`, { context });
          const header = answer.json?.message?.header;
          if (header) t.equal(header.status_code, example.expect, 'status_code in the envelope', { context });
          if (example.kind === 'curl' && example.expect === 200) {
            for (const [name, list] of listsOf(answer.json?.message?.body)) t.ok(list.length > 0, `${name} is not empty: the example shows something`, { context });
          }
        }
        if (typeof answer.json?.access_token === 'string') state.values.set('access token', answer.json.access_token);
      });
    }
  }
});
