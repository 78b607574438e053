/**
 * bench/fingerprint/answer-diff: two answer dumps of bench/fingerprint/short-profile (`--mode dump`,
 * the same queries, before and after a change) compared set by set (bench/quality's buckets, then
 * the 200-character excerpts, lines and 50-character excerpts):
 *
 *   node dist/bench/fingerprint/answer-diff.js --before FILE --after FILE [--examples 5]
 *
 * Per set: answers that differ at all; whose first answer is another track; the rank of the first
 * right answer (a track of `relevant`) better or worse, and recall@1; the first answer's evidence
 * (characters covered, longest passage) up or down; and how many first answers account for the
 * whole normalised query with one passage (covered = longest = its length); and how many first
 * answers bench/quality's screening rule flags (on sets without right answers, false positives).
 * Then a few examples of each kind of change.
 */
import fs from 'node:fs';
import { normalizeText } from '../../src/index/kernel/normalize.js';
import { benchArgs } from '../lib/args.js';

type Hit = [track: number, commontrack: number, similarity: number, covered: number, longest: number, tracks: number[]];
interface Answer {
  set: string;
  text: string;
  relevant?: number[];
  hits: Hit[];
}

const args = benchArgs({ before: undefined, after: undefined, examples: 5 });
if (!args.before || !args.after) throw new Error('usage: answer-diff --before FILE --after FILE [--examples N]');
const [before, after] = [args.before, args.after].map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Answer[]);
if (before.length !== after.length) throw new Error('the dumps hold different queries');

/** Rank (1-based) of the first hit holding a relevant track, or Infinity. */
const rankOf = (a: Answer): number => {
  const relevant = new Set(a.relevant ?? []);
  const i = a.hits.findIndex((h) => relevant.has(h[0]) || h[5].some((t) => relevant.has(t)));
  return i < 0 ? Infinity : i + 1;
};

interface Row {
  queries: number;
  differ: number;
  firstChanged: number;
  rankBetter: number;
  rankWorse: number;
  recallBefore: number;
  recallAfter: number;
  evidenceUp: number;
  evidenceDown: number;
  wholeBefore: number;
  wholeAfter: number;
  flaggedBefore: number;
  flaggedAfter: number;
}
/** bench/quality's screening rule (docs/fingerprint.md): a first answer this similar, or with a passage this long, flags the text. */
const RULE = { similarity: 50, longest: 80 };
const flagged = (x: Answer) => x.hits[0] !== undefined && (x.hits[0][2] >= RULE.similarity || x.hits[0][4] >= RULE.longest);
const rows = new Map<string, Row>();
const examples = new Map<string, string[]>();
const example = (kind: string, line: string) => {
  const list = examples.get(kind) ?? [];
  if (list.length < args.examples) list.push(line);
  examples.set(kind, list);
};
const show = (h: Hit | undefined) => (h ? `track ${h[0]} sim ${h[2].toFixed(1)} covered ${h[3]} longest ${h[4]}` : 'none');
for (let i = 0; i < before.length; i++) {
  const b = before[i];
  const a = after[i];
  if (a.text !== b.text) throw new Error(`query ${i} is not the same query`);
  const row = rows.get(b.set) ?? { queries: 0, differ: 0, firstChanged: 0, rankBetter: 0, rankWorse: 0, recallBefore: 0, recallAfter: 0, evidenceUp: 0, evidenceDown: 0, wholeBefore: 0, wholeAfter: 0, flaggedBefore: 0, flaggedAfter: 0 };
  rows.set(b.set, row);
  row.queries++;
  const length = normalizeText(b.text).length;
  const whole = (x: Answer) => x.hits[0] !== undefined && x.hits[0][3] === length && x.hits[0][4] === length;
  if (whole(b)) row.wholeBefore++;
  if (whole(a)) row.wholeAfter++;
  if (flagged(b)) row.flaggedBefore++;
  if (flagged(a)) row.flaggedAfter++;
  const rb = rankOf(b);
  const ra = rankOf(a);
  if (rb === 1) row.recallBefore++;
  if (ra === 1) row.recallAfter++;
  if (JSON.stringify(a.hits) === JSON.stringify(b.hits)) continue;
  row.differ++;
  const line = `${b.set} ${JSON.stringify(b.text.slice(0, 90))} (${length} chars, relevant rank ${rb} → ${ra})\n    before ${show(b.hits[0])}\n    after  ${show(a.hits[0])}`;
  if (a.hits[0]?.[0] !== b.hits[0]?.[0]) {
    row.firstChanged++;
    example('first answer changed', line);
  }
  if ((a.relevant ?? []).length === 0 && flagged(a) !== flagged(b)) example(flagged(a) ? 'unrelated text newly flagged' : 'unrelated text no longer flagged', line);
  if (ra < rb) row.rankBetter++;
  if (ra > rb) {
    row.rankWorse++;
    example('right answer ranked lower', line);
  }
  const eb = b.hits[0] ? b.hits[0][3] + b.hits[0][4] : 0;
  const ea = a.hits[0] ? a.hits[0][3] + a.hits[0][4] : 0;
  if (ea > eb) row.evidenceUp++;
  if (ea < eb) {
    row.evidenceDown++;
    example('first answer with less evidence', line);
  }
}
console.log('| set | queries | answers differ | 1st answer another track | right answer ranked higher / lower | recall@1 before → after | 1st answer evidence up / down | 1st answer whole (covered = longest = length) before → after | flagged by the screening rule before → after |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [set, r] of rows) {
  console.log(`| ${set} | ${r.queries} | ${r.differ} | ${r.firstChanged} | ${r.rankBetter} / ${r.rankWorse} | ${r.recallBefore} → ${r.recallAfter} | ${r.evidenceUp} / ${r.evidenceDown} | ${r.wholeBefore} → ${r.wholeAfter} | ${r.flaggedBefore} → ${r.flaggedAfter} |`);
}
for (const [kind, list] of examples) console.log(`\n${kind}:\n${list.map((l) => `  ${l}`).join('\n')}`);
