/**
 * The bench's report: a markdown page (bench/results/quality-<N>.md, also printed) and the same
 * figures as JSON (quality-<N>.json). Every table says what it measures; systems that did not run
 * say why.
 */
import { SHARED_PASSAGE_WORDS, type CatalogInfo } from './catalog.js';
import type { SystemRun } from './evaluate.js';
import type { Scores } from './metrics.js';
import type { Screening } from './screening.js';
import type { Paired } from './paired.js';
import { BUCKETS, type Bucket, type QuerySet } from './queries.js';

export interface ScoredRun extends Omit<SystemRun, 'outcomes'> {
  scores?: Scores;
  /** Date of the earlier run these figures come from (`--merge`). */
  carriedFrom?: string;
}

export interface Report {
  at: string;
  /** False while the run is still going (the report is rewritten after each system) or if it stopped. */
  complete: boolean;
  machine: string;
  /** 1-minute load average when the run started and ended (other work on the machine skews latency). */
  loadAverage: { start: number; end: number };
  tracks: number;
  catalog: CatalogInfo;
  query: {
    seed: number;
    perBucket: number;
    total: number;
    perBucketCounts: Partial<Record<Bucket, number>>;
    unrelated: { heldout: number; prose: number };
    minWords: number;
    heldOutDroppedShared?: number;
    vocabularySize: number;
    prose: QuerySet['prose'];
  };
  threshold: number;
  stages: Array<{ stage: string; seconds: number; note?: string }>;
  systems: ScoredRun[];
  /** Refrain's screening of every unrelated text (screening.ts). */
  screening?: Screening;
  /** Refrain against each baseline that ran a subsample, on that subsample (paired.ts). */
  paired?: Paired[];
}

const fixed = (x: number | undefined, digits = 3): string => (x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(digits));
const pct = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const ms = (x: number): string => (Number.isNaN(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x.toFixed(0));
const secs = (x: number): string => (x < 10 ? `${x.toFixed(1)} s` : x < 600 ? `${x.toFixed(0)} s` : `${(x / 60).toFixed(1)} min`);
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(head: string[], rows: string[][], align: string[] = head.map((_, i) => (i === 0 ? '---' : '---:'))): string {
  return [`| ${head.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

function metricTable(r: Report, scored: readonly ScoredRun[], metric: 'recall1' | 'recall10' | 'mrr'): string {
  const buckets = BUCKETS.filter((b) => b !== 'unrelated');
  const rows = buckets.map((b) => [b, String(r.query.perBucketCounts[b] ?? 0), ...scored.map((s) => fixed(s.scores?.buckets[b]?.[metric]))]);
  return table(['bucket', 'n', ...scored.map((s) => s.name)], rows);
}

export function markdown(r: Report): string {
  const c = r.catalog;
  const scored = r.systems.filter((s): s is ScoredRun & { scores: Scores } => s.status === 'ok' && s.scores !== undefined);
  const refrain = scored.find((s) => s.name === 'refrain');
  const out: string[] = [];
  out.push(`# bench/quality — fingerprint quality at ${r.tracks.toLocaleString('en')} tracks`, '');
  if (!r.complete) out.push('**Partial report**: written after each system; the run had not finished (or stopped) when this was written.', '');
  out.push(`${r.at.slice(0, 16)}Z — ${r.machine}; 1-min load average ${r.loadAverage.start.toFixed(1)} at start, ${r.loadAverage.end.toFixed(1)} at end`, '');
  out.push(
    `**Catalog**: ${r.tracks.toLocaleString('en')} tracks = ${c.corpusTracks.toLocaleString('en')} real-text tracks (the five ` +
      `\`/work/shared/corpus\` files minus the held-out tracks, track_id % 20 = 0) + ${c.generatedTracks.toLocaleString('en')} ` +
      `generated distractors (${c.distractorSource}). Held-out: ${c.heldOut.total.toLocaleString('en')} fortunes; ` +
      `${c.heldOut.droppedEqual} dropped as equal to an imported text and ${c.heldOut.droppedContained} as contained in one (normal form), ` +
      `${c.heldOut.kept.toLocaleString('en')} kept` +
      (r.query.heldOutDroppedShared === undefined
        ? ' as unrelated texts.'
        : `, of which ${r.query.heldOutDroppedShared} are left out of the unrelated texts for sharing a passage of ${SHARED_PASSAGE_WORDS} words with an imported text (flagging them is right).`),
    '',
    `**Queries**: seed ${r.query.seed}, ${r.query.perBucket} per bucket, ${r.query.total.toLocaleString('en')} in all, each of ≥ ${r.query.minWords} words but \`line\`. ` +
      `Lyric buckets: half from real-text tracks, half from generated ones, only from lyrics long enough and visible to a key without a country. ` +
      `\`exact-N\`: N characters from a word start; \`format\`: 200 characters with case, punctuation and line breaks changed; ` +
      `\`noise-P\`: 200 characters with P% of characters substituted/inserted/deleted; \`words-P\`: 200 characters with P% of words ` +
      `dropped, replaced (vocabulary of ${r.query.vocabularySize.toLocaleString('en')} lyric words) or swapped; \`embedded\`: 200 characters ` +
      `in the middle of ~800 characters of README prose; \`line\`: one whole lyric line of 4–9 words, as a social post quotes it. \`unrelated\`: ${r.query.unrelated.heldout} held-out fortunes + ` +
      `${r.query.unrelated.prose} README paragraphs (node_modules, markdown and code stripped), 100–600 characters each.`,
    '',
    '**Scoring**: the relevant tracks of a query are all tracks whose lyrics have the same normal form (lower case, letters and digits, ' +
      'spaces collapsed) as its source (versions share lyrics; fortunes repeat). recall@k = share of queries with a relevant track ' +
      'in the top k; MRR over the top 10; errors and timeouts count as misses. Systems ran one after another on the same catalog and ' +
      'queries; latency is per query as the bench sees it (client side, including HTTP / protocol / pipe), with the concurrency listed.',
    '',
  );

  out.push('## Systems', '');
  out.push(
    table(
      ['system', 'status', 'load', 'in flight', 'p50 ms', 'p99 ms', 'errors', 'timeouts', 'settings; load detail'],
      r.systems.map((s) => [
        s.carriedFrom ? `${s.name} (run of ${s.carriedFrom.slice(0, 16)}Z)` : s.name,
        s.status === 'ok'
          ? s.subsamplePerBucket
            ? `ok on a subsample (${s.subsamplePerBucket} per bucket, ${s.queryCount} queries)`
            : 'ok'
          : `**${s.status}**: ${s.reason ?? ''}`,
        s.load ? `${secs(s.load.seconds)}${s.load.cached ? ' (reused)' : ''}` : 'n/a',
        String(s.concurrency),
        s.scores ? ms(s.scores.latency.p50) : 'n/a',
        s.scores ? ms(s.scores.latency.p99) : 'n/a',
        s.scores ? String(s.scores.errors) : 'n/a',
        s.scores ? String(s.scores.timeouts) : 'n/a',
        `${s.settings}${s.load ? `; ${s.load.detail}` : ''}`,
      ]),
      ['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---'],
    ),
    '',
  );

  if (scored.length > 0) {
    out.push('## recall@1', '', metricTable(r, scored, 'recall1'), '');
    for (const p of r.paired ?? []) {
      out.push(`## recall@1 paired with ${p.system}, on its subsample`, '');
      out.push(`${p.system} answered a subsample only: here Refrain is scored on exactly the queries ${p.system} answered.`, '');
      const rows = Object.entries(p.buckets).map(([b, x]) => [b, String(x.n), fixed(x.refrain), fixed(x.baseline)]);
      out.push(table(['bucket', 'n', 'refrain', p.system], rows), '');
    }
    out.push('## recall@10', '', metricTable(r, scored, 'recall10'), '');
    out.push('## MRR', '', metricTable(r, scored, 'mrr'), '');

    out.push(`## False positives on \`unrelated\` (n = ${r.query.perBucketCounts.unrelated ?? 0})`, '');
    const fpRows: string[][] = [];
    for (const s of scored) {
      const u = s.scores.unrelated;
      if (s.name === 'refrain') fpRows.push([s.name, `top similarity ≥ ${r.threshold}`, pct(u.atThreshold)]);
      fpRows.push([s.name, s.name === 'refrain' ? 'any answer (top score present)' : 'top score present (any answer)', pct(u.anyHit)]);
    }
    out.push(table(['system', 'false positive when', 'rate'], fpRows, ['---', '---', '---:']), '');
    out.push(
      'The baselines have no calibrated score, so their rate is "answered at all" (pg_trgm answers only above its word_similarity ' +
        'threshold; FTS5 and MiniSearch answer whenever one word matches). A threshold-based rate is n/a for them.',
      '',
    );

    if (refrain?.scores?.sweep) {
      const buckets = BUCKETS.filter((b) => b !== 'unrelated');
      out.push('## Refrain: similarity threshold sweep', '');
      out.push('FP rate on `unrelated` and recall@1 counting only a top answer at or above the threshold.', '');
      out.push(
        table(
          ['threshold', 'FP rate', ...buckets],
          refrain.scores.sweep.map((row) => [String(row.threshold), pct(row.fpRate), ...buckets.map((b) => fixed(row.recall1[b]))]),
        ),
        '',
      );
    }

    // Ambiguity counts from the system that answered the most queries (others may have run a subsample).
    const first = scored.reduce((a, b) => (b.queryCount > a.queryCount ? b : a)).scores.buckets;
    if (Object.values(first).some((b) => b?.ambiguous !== undefined)) {
      const lyricBuckets = BUCKETS.filter((b) => b !== 'unrelated');
      out.push('## Ambiguous excerpts', '');
      out.push(
        'FTS5 look-ups of each query\'s unedited excerpt (less its possibly cut last word) in tracks outside its relevant set. ' +
          '*verbatim*: the excerpt occurs word for word in another song, so no system can know which one was meant; the system ' +
          'columns give recall@1 over the other queries (n). *lines elsewhere*: another song holds every line of the excerpt, not ' +
          'necessarily together (generated lyrics reuse whole lines): a score that only measures how much of the query a lyric ' +
          'covers ties it with the source, one that also rewards contiguity need not.',
        '',
      );
      out.push(
        table(
          ['bucket', 'verbatim', 'lines elsewhere', ...scored.map((s) => s.name)],
          lyricBuckets.map((b) => [
            b,
            `${first[b]?.ambiguous ?? 'n/a'} of ${first[b]?.n ?? 0}`,
            `${first[b]?.linesAmbiguous ?? 'n/a'} of ${first[b]?.n ?? 0}`,
            ...scored.map((s) => {
              const u = s.scores.buckets[b]?.unambiguous;
              return u ? `${fixed(u.recall1)} (${u.n})` : 'n/a';
            }),
          ]),
        ),
        '',
      );
    }

    if (Object.values(first).some((b) => b?.shared !== undefined)) {
      out.push('## Short excerpts: unique to their song, or shared', '');
      out.push(
        'The `exact-50` and `line` queries split by the look-ups above: *unique* excerpts occur word for word in no other song ' +
          '(target at 1M: recall@1 ≥ 0.98); *shared* ones occur in others too (a stock line), where no system can know the source: ' +
          'the target is the source among the top 10 (recall@10). A line held by hundreds of songs (most generated stock lines) ' +
          'cannot put a random one of them in a top 10, by any method: *shared with ≤ 9 others* is where the top 10 can hold them all.',
        '',
      );
      out.push(
        table(
          ['bucket', ...scored.flatMap((s) => [`${s.name} unique: recall@1 (n)`, `${s.name} shared: recall@10 (n)`, `${s.name} shared with ≤ 9 others: recall@10 (n)`])],
          (['exact-50', 'line'] as const).map((b) => [
            b,
            ...scored.flatMap((s) => {
              const e = s.scores.buckets[b];
              const cell = (x?: { n: number; recall10?: number; recall1?: number }) => (x ? `${fixed((x.recall10 ?? x.recall1)!)} (${x.n})` : 'n/a');
              return [cell(e?.unambiguous), cell(e?.shared), cell(e?.sharedFew)];
            }),
          ]),
        ),
        '',
      );
    }

    const rule = refrain?.scores.rule;
    if (rule) {
      const buckets = BUCKETS.filter((b) => b !== 'unrelated');
      out.push(`## Refrain: screening rule similarity ≥ ${rule.similarity} or longest_match ≥ ${rule.longest}`, '');
      out.push('FP rate on `unrelated` and recall@1 counting only a top answer the rule flags (docs/fingerprint.md).', '');
      out.push(table(['FP rate', ...buckets], [[pct(rule.fpRate), ...buckets.map((b) => fixed(rule.recall1[b]))]]), '');
    }

    if (r.screening) out.push(...screeningSection(r.screening));

    out.push('## recall@1 by source (real-text corpus / generated)', '');
    const buckets = BUCKETS.filter((b) => b !== 'unrelated');
    out.push(
      table(
        ['bucket', ...scored.map((s) => s.name)],
        buckets.map((b) => [b, ...scored.map((s) => `${fixed(s.scores?.byOrigin[b]?.corpus?.recall1, 2)} / ${fixed(s.scores?.byOrigin[b]?.generated?.recall1, 2)}`)]),
      ),
      '',
    );
  }

  out.push('## Stage times', '');
  out.push(table(['stage', 'time', 'note'], r.stages.map((s) => [s.stage, secs(s.seconds), s.note ?? '']), ['---', '---:', '---']), '');
  return out.join('\n');
}

/** Refrain's false-positive rate on every unrelated text, with the flagged texts and their matches. */
function screeningSection(s: Screening): string[] {
  const quote = (t: string) => `"${t.replace(/\s+/g, ' ').trim().slice(0, 160).replace(/\|/g, '\\|')}${t.length > 160 ? '…' : ''}"`;
  const out = [
    `## Refrain: false positives on every unrelated text (${s.texts.toLocaleString('en')})`,
    '',
    `All ${s.heldout.toLocaleString('en')} held-out fortunes and ${s.prose.toLocaleString('en')} README paragraphs that fit the \`unrelated\` rules ` +
      `(the bucket above is a sample of them), screened with the rule similarity ≥ ${s.rule.similarity} or longest_match ≥ ${s.rule.longest}: ` +
      `**${s.flagged.length} flagged = ${pct(s.flagged.length / Math.max(1, s.texts))}**` +
      `${s.errors ? ` (${s.errors} errors)` : ''}, in ${s.seconds.toFixed(0)} s. Each flagged text and the lyric it matched:`,
    '',
  ];
  if (s.flagged.length > 0) {
    out.push(
      table(
        ['similarity', 'longest', 'text', 'matched lyric'],
        s.flagged.map((f) => [f.similarity.toFixed(1), String(f.longest), quote(f.text), quote(f.lyric)]),
        ['---:', '---:', '---', '---'],
      ),
      '',
    );
  }
  return out;
}
