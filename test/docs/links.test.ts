/**
 * The documentation stands on its own: every relative link and every file it names in README.md
 * and docs/*.md resolves inside the repository (anchors included), and nothing sends the reader to
 * a design document the repository does not hold.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { anchors, docs, lines, ROOT } from './markdown.js';

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let set = anchorCache.get(file);
  if (!set) anchorCache.set(file, (set = anchors(readFileSync(file, 'utf8'))));
  return set;
}

/** Why `target` (a path, maybe with `#anchor`) does not resolve from `base`, or undefined when it does. */
function problem(base: string, target: string): string | undefined {
  const hash = target.indexOf('#');
  const rel = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : target.slice(hash + 1);
  const file = rel === '' ? base : path.resolve(rel.startsWith('/') ? ROOT : path.dirname(base), rel.replace(/^\//, ''));
  const inside = path.relative(ROOT, file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return 'points outside the repository';
  if (/[*<>]/.test(rel)) return matchesSome(file) ? undefined : 'matches no file';
  if (!existsSync(file)) return 'no such file';
  if (anchor !== undefined && anchor !== '') {
    if (!statSync(file).isFile() || !file.endsWith('.md')) return undefined;
    if (!anchorsOf(file).has(anchor)) return `no heading with anchor #${anchor} in ${path.relative(ROOT, file)}`;
  }
  return undefined;
}

/** A path with `*` or `<placeholder>` parts names at least one existing file. */
function matchesSome(pattern: string): boolean {
  const parts = path.relative(ROOT, pattern).split(path.sep);
  let dirs = [ROOT];
  for (const part of parts) {
    if (part === '') continue;
    const re = new RegExp(`^${part.split(/(\*|<[^>]*>)/).map((p, i) => (i % 2 ? '[^/]+' : p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
    dirs = dirs.flatMap((dir) => {
      try {
        return readdirSync(dir).filter((e) => re.test(e)).map((e) => path.join(dir, e));
      } catch {
        return [];
      }
    });
  }
  return dirs.length > 0;
}

/** Markdown links `[text](target)` and reference definitions `[x]: target` of a prose line. */
function links(line: string): string[] {
  const prose = line.replace(/`[^`]*`/g, '');
  const out: string[] = [];
  for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  const def = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
  if (def) out.push(def[1]);
  return out;
}

/**
 * Files named in prose and code spans: paths from the repository root such as `docs/api.md#feeds`
 * or `src/catalog/schema.ts`, and paths climbing out of the file's folder (`../…`). Run outputs under
 * the git-ignored `bench/.data/` are not repository files.
 */
const FILE_REF = /(?<![\w./<>-])((?:\.\.\/)+[\w.*<>/-]+|(?:docs|src|bench|test|scripts|bin|native-index)\/[\w.*<>/-]*)(#[\w-]+)?/g;

const found: Array<{ where: string; target: string; why: string }> = [];
const checked = { links: 0, refs: 0 };
for (const doc of docs()) {
  for (const line of lines(doc.text)) {
    if (line.fenced) continue;
    const where = `${doc.name}:${line.n}`;
    for (const target of links(line.text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      checked.links++;
      const why = problem(doc.file, target);
      if (why) found.push({ where, target, why });
    }
    for (const m of line.text.matchAll(FILE_REF)) {
      const ref = m[1].replace(/[.]+$/, '');
      if (ref.startsWith('bench/.data/')) continue;
      checked.refs++;
      const base = ref.startsWith('../') ? doc.file : path.join(ROOT, 'README.md');
      const why = problem(base, ref + (m[2] ?? ''));
      if (why) found.push({ where, target: ref + (m[2] ?? ''), why });
    }
  }
}

t.test('every relative link and file reference in README.md and docs/*.md resolves inside the repository', async (t) => {
  t.ok(checked.links > 20, `links were found (${checked.links})`);
  t.ok(checked.refs > 20, `file references were found (${checked.refs})`);
  t.same(found, [], found.map((f) => `${f.where}: ${f.target}: ${f.why}`).join('\n') || 'all resolve');
});

t.test('the checker itself catches a missing file, a missing anchor and a path out of the repository', async (t) => {
  const readme = path.join(ROOT, 'README.md');
  t.equal(problem(readme, 'docs/api.md#envelope-and-errors'), undefined);
  t.equal(problem(readme, 'docs/api.md#no-such-heading'), 'no heading with anchor #no-such-heading in docs/api.md');
  t.equal(problem(readme, 'docs/no-such-page.md'), 'no such file');
  t.equal(problem(path.join(ROOT, 'docs/api.md'), '../../elsewhere/spec.md'), 'points outside the repository');
  t.equal(problem(readme, 'bench/results/quality-*.md'), undefined);
  t.equal(problem(readme, 'bench/results/nothing-*.md'), 'matches no file');
});

t.test('no doc cites a DESIGN.md: the design is docs/design.md', async (t) => {
  const cites = docs().flatMap((doc) => lines(doc.text).filter((l) => /DESIGN\.md/.test(l.text)).map((l) => `${doc.name}:${l.n}`));
  t.same(cites, [], cites.length ? `DESIGN.md is cited at ${cites.join(', ')}` : 'none');
  t.ok(existsSync(path.join(ROOT, 'docs/design.md')), 'docs/design.md exists');
});

t.test('every "design.md §N" in the docs and the code names a section of docs/design.md', async (t) => {
  const design = readFileSync(path.join(ROOT, 'docs/design.md'), 'utf8');
  const sections = new Set([...design.matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));
  t.ok(sections.size >= 10, `docs/design.md has numbered sections (${[...sections].join(', ')})`);
  const files = [...docs().map((d) => d.file), ...sourceFiles(path.join(ROOT, 'src'))];
  const bad: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(/design\.md §(\d+)/g)) {
      if (!sections.has(m[1])) bad.push(`${path.relative(ROOT, file)}: design.md §${m[1]}`);
    }
  }
  t.same(bad, [], bad.join('\n') || 'all sections exist');
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}
