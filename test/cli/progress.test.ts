/**
 * Progress bars (issue 11 #18): the last drawing is 100% with the final count, and while running the
 * percentage never runs ahead of the count. `--progress` draws them on a pipe too.
 */
import t, { type Test } from 'tap';
import path from 'node:path';
import { runCli as run } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

interface Frame { label: string; percent: number; done: number; total?: number }

/** Every drawing of a bar in stderr (each starts with a carriage return). */
function frames(err: string, label: string): Frame[] {
  const out: Frame[] = [];
  for (const part of err.split(/[\r\n]/)) {
    const m = new RegExp(`^${label} [█░]{30} +(\\d+)%  ([\\d,]+)(?:/([\\d,]+))? \\(`).exec(part);
    if (m) out.push({ label, percent: Number(m[1]), done: Number(m[2].replace(/,/g, '')), total: m[3] ? Number(m[3].replace(/,/g, '')) : undefined });
  }
  return out;
}

function endsAt100(t: Test, err: string, label: string, count: number): Frame[] {
  const list = frames(err, label);
  t.ok(list.length > 0, `${label}: drawn`);
  t.match(list.at(-1), { percent: 100, done: count }, `${label}: ends at 100% with ${count}`);
  t.ok(list.slice(0, -1).every((f) => f.percent < 100), `${label}: 100% only at the end`);
  const whole = list.filter((f) => f.total !== undefined);
  t.ok(whole.every((f) => f.percent === (f === list.at(-1) ? 100 : Math.min(99, Math.floor((f.done / f.total!) * 100)))), `${label}: the percentage matches the count`);
  if (list.at(-1)!.total !== undefined) t.equal(list.at(-1)!.total, count, `${label}: final count/total`);
  return list;
}

t.test('generate, import and index end at 100% with their counts', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'c.jsonl.gz');
  const gen = run(['generate', '--tracks', '3000', '--seed', '7', '--out', file, '--progress']);
  t.equal(gen.code, 0, gen.err);
  const generated = endsAt100(t, gen.err, 'generating', 3000);
  t.ok(generated.length >= 2, 'drawn while running and at the end');

  const imp = run(['import', file, '--data', path.join(dir, 'data'), '--progress']);
  t.equal(imp.code, 0, imp.err);
  endsAt100(t, imp.err, 'importing', 3000);
  endsAt100(t, imp.err, 'indexing', 3000);

  const again = run(['index', '--data', path.join(dir, 'data'), '--progress']);
  t.equal(frames(again.err, 'indexing').length, 0, 'nothing built, no bar');
  const forced = run(['index', '--data', path.join(dir, 'data'), '--progress', '--force']);
  endsAt100(t, forced.err, 'indexing', 3000);

  t.equal(run(['generate', '--tracks', '50', '--out', path.join(dir, 'quiet.jsonl')]).err, '', 'no bar on a pipe unless asked');
});
