/**
 * `refrain contributions list|show|approve|reject`: the operator's review of what users sent with
 * track.lyrics.post and track.lyrics.feedback.post (docs/operations.md "Contributions").
 */
import { createTwoFilesPatch } from 'diff';
import { type CommandConfig } from '../config.js';
import { RefrainError } from '../errors.js';
import { hashOf } from '../catalog/parse.js';
import type { Catalog } from '../catalog/store.js';
import { ContributionStore, type ContributionRecord } from '../contributions/store.js';
import { WorkStore } from '../works/store.js';
import { emit } from './output.js';
import { withCatalog } from './oauth-commands.js';

type ContributionsConfig = CommandConfig<'contributions show'> & Partial<CommandConfig<'contributions list'> & CommandConfig<'contributions reject'>>;

function trackName(catalog: Catalog, trackId: number): string {
  const t = catalog.getTrack(trackId);
  return t ? `"${t.track_name}" by ${t.artist_name}` : '(no longer in the catalog)';
}

function describe(catalog: Catalog, c: ContributionRecord): string {
  const what = c.type === 'lyrics' ? `lyrics (${c.lyrics_body!.length} characters${c.lyrics_language ? `, ${c.lyrics_language}` : ''})` : `feedback ${c.feedback}`;
  const review = c.reviewed_time ? `\n    ${c.status} ${c.reviewed_time}${c.reason ? `: ${c.reason}` : ''}` : '';
  return `#${c.contribution_id}  ${c.status}  ${what}\n    track ${c.track_id} ${trackName(catalog, c.track_id)}\n` +
    `    sent ${c.submitted_time} by ${c.source_name ? `"${c.source_name}" ` : ''}(${c.source}${c.user ? `, user ${c.user}` : ''})${review}`;
}

/** Ids given on the command line, all of them well-formed. */
function ids(args: string[], action: string): number[] {
  if (args.length === 0) throw new RefrainError('usage', `name the contribution ids to ${action} (see \`refrain contributions list\`)`);
  return args.map((a) => {
    if (!/^#?\d{1,10}$/.test(a)) throw new RefrainError('usage', `'${a}' is not a contribution id (a number, as \`refrain contributions list\` shows it)`);
    return Number(a.replace('#', ''));
  });
}

export async function runContributions(action: string, config: ContributionsConfig, args: string[]): Promise<number> {
  if (action === 'list' && args.length) throw new RefrainError('usage', 'list takes no ids: use `refrain contributions show <id>`');
  if (action === 'show' && args.length !== 1) throw new RefrainError('usage', 'name one contribution id to show');
  const wanted = action === 'list' ? [] : ids(args, action);
  return withCatalog(config.data, (catalog) => {
    const store = new ContributionStore(catalog, new WorkStore(catalog));
    switch (action) {
      case 'list': {
        const status = config.status ?? 'pending';
        const list = store.list(status, config.limit ?? 100);
        const total = store.count(status);
        emit(config.json, { status, total, contributions: list }, () =>
          list.length
            ? `${list.map((c) => describe(catalog, c)).join('\n')}\n${total > list.length ? `(${list.length} of ${total} ${status}: --limit shows more)` : `${total} ${status}`}`
            : `no ${status} contributions`,
        );
        return 0;
      }
      case 'show': {
        const c = store.get(wanted[0]);
        if (!c) throw new RefrainError('not_found', `no contribution ${wanted[0]} (refrain contributions list shows them)`);
        const current = catalog.getContent('lyrics', c.track_id);
        const now = current ? hashOf(current.lyrics_body) : '';
        const changed = c.status === 'pending' && now !== c.lyrics_hash ? '\n    (the lyrics changed since it was sent: the diff is against the lyrics now)' : '';
        const diff = c.type === 'lyrics'
          ? createTwoFilesPatch('current lyrics', 'proposed lyrics', ensureNewline(current?.lyrics_body ?? ''), ensureNewline(c.lyrics_body!), '', '', { context: 2 })
          : undefined;
        emit(config.json, { contribution: c, current_lyrics: current?.lyrics_body ?? null }, () =>
          `${describe(catalog, c)}${changed}\n${diff ?? `    the lyrics now:\n${(current?.lyrics_body ?? '(none)').replace(/^/gm, '      ')}`}`,
        );
        return 0;
      }
      default: {
        const done: ContributionRecord[] = [];
        const now = Date.now();
        for (const id of wanted) done.push(action === 'approve' ? store.approve(id, now) : store.reject(id, config.reason, now));
        const lyrics = done.some((c) => c.type === 'lyrics' && c.status === 'approved');
        emit(config.json, { contributions: done }, () =>
          done.map((c) => describe(catalog, c)).join('\n') +
          (lyrics ? '\n(a running server rebuilds its search index once the catalog settles; without one, run `refrain index`)' : ''),
        );
        return 0;
      }
    }
  });
}

const ensureNewline = (s: string): string => (s.endsWith('\n') ? s : `${s}\n`);
