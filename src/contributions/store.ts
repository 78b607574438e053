/**
 * Contributions from users (track.lyrics.post, track.lyrics.feedback.post; docs/api.md): each is
 * stored as pending and changes nothing else until an operator reviews it (`refrain contributions
 * list|show|approve|reject`). Approving lyrics writes them to the track through the import's write
 * path (change log, feeds, index); approving feedback records that it was acted on.
 *
 * Databases, in the catalog's LMDB environment:
 *   contributions          uint32 contribution_id → ContributionRecord
 *   contributions:status   [status, contribution_id] → ''     (the review queue, oldest first)
 *   contributions:pending  [source, contribution_id] → ''     (what each submitter has waiting)
 *   contributions:meta     `seq` → the last contribution_id
 *
 * No caller can grow them without bound: each submitter may have `perSource` contributions pending
 * and the whole server `total` (429 past either, docs/operations.md), and a repeat of a pending
 * contribution (same submitter, track and text or feedback) is answered with the one stored.
 */
import type { Database, Key } from 'lmdb';
import { MAX_ID, STRUCTURES_KEY, type Catalog } from '../catalog/store.js';
import { hashOf } from '../catalog/parse.js';
import { importRecordSchema } from '../catalog/schema.js';
import { applyWithin } from '../catalog/write.js';
import { trackLine } from '../feeds/lines.js';
import { RefrainError } from '../errors.js';
import type { WorkStore } from '../works/store.js';
import { isoSeconds } from '../util/date.js';

/** The public API's feedback values. */
export const FEEDBACK = ['wrong_lyrics', 'wrong_attribution', 'bad_characters', 'lines_too_long', 'wrong_verses', 'wrong_formatting'] as const;
export type Feedback = (typeof FEEDBACK)[number];

export const STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ContributionStatus = (typeof STATUSES)[number];

export interface ContributionRecord {
  contribution_id: number;
  type: 'lyrics' | 'feedback';
  track_id: number;
  /** The lyrics the contribution is about, as they were when it was sent (0: the track had none). */
  lyrics_id: number;
  /** xxh64 of the lyrics body when it was sent ('' without lyrics): tells whether they changed since. */
  lyrics_hash: string;
  /** track.lyrics.post: the text proposed, and its language ('' when not given). */
  lyrics_body?: string;
  lyrics_language?: string;
  /** track.lyrics.feedback.post: what is wrong. */
  feedback?: Feedback;
  /** Who sent it: the key's key_id (or `oauth:<client_id>`), its label, and the token's user if any. */
  source: string;
  source_name: string;
  user?: string;
  submitted_time: string;
  status: ContributionStatus;
  reviewed_time?: string;
  /** The operator's reason, for a rejection (optional). */
  reason?: string;
}

export interface Submitter {
  id: string;
  name: string;
  user?: string;
}

export type NewContribution = Pick<ContributionRecord, 'type' | 'track_id' | 'lyrics_body' | 'lyrics_language' | 'feedback'>;

export interface ContributionLimits {
  /** Contributions one submitter may have pending. */
  perSource: number;
  /** Contributions pending on the whole server. */
  total: number;
}

/** 1,000 per submitter, 100,000 in all (`--contributions-per-key`, `--contributions-pending`). */
export const DEFAULT_CONTRIBUTION_LIMITS: ContributionLimits = { perSource: 1000, total: 100_000 };

export class ContributionStore {
  private readonly records: Database<ContributionRecord, number>;
  private readonly byStatus: Database<'', Key>;
  private readonly pending: Database<'', Key>;
  private readonly meta: Database<number, string>;

  /** `works` lends an applied contribution's track line its credits (feeds/lines.ts). */
  constructor(
    private readonly catalog: Catalog,
    private readonly works: WorkStore,
  ) {
    const root = catalog.root;
    this.records = root.openDB<ContributionRecord, number>({ name: 'contributions', keyEncoding: 'uint32', sharedStructuresKey: STRUCTURES_KEY });
    this.byStatus = root.openDB<'', Key>({ name: 'contributions:status', encoding: 'binary' });
    this.pending = root.openDB<'', Key>({ name: 'contributions:pending', encoding: 'binary' });
    this.meta = root.openDB<number, string>({ name: 'contributions:meta' });
  }

  get(id: number): ContributionRecord | undefined {
    return Number.isInteger(id) && id >= 1 && id <= MAX_ID ? this.records.get(id) : undefined;
  }

  /** Contributions with a status, oldest first (after `after`, at most `limit`). */
  list(status: ContributionStatus, limit: number, after = 0): ContributionRecord[] {
    const out: ContributionRecord[] = [];
    for (const key of this.byStatus.getKeys({ start: [status, after + 1], end: [status, MAX_ID + 1], limit })) {
      const record = this.records.get((key as [string, number])[1]);
      if (record) out.push(record);
    }
    return out;
  }

  count(status: ContributionStatus): number {
    return this.byStatus.getKeysCount({ start: [status, 0], end: [status, MAX_ID + 1] });
  }

  /**
   * Stores a contribution as pending, in one asynchronous write transaction (an import may hold the
   * write lock: the request waits its turn off the event loop, as work.post does). Resolves to the
   * stored record: the new one, or the same pending one sent before.
   */
  submit(submitter: Submitter, input: NewContribution, limits: ContributionLimits, now: number): Promise<ContributionRecord> {
    return this.catalog.root.childTransaction((): ContributionRecord => {
      const lyrics = this.catalog.getContent('lyrics', input.track_id);
      const repeat = this.pendingOf(submitter.id).find(
        (c) => c.type === input.type && c.track_id === input.track_id && c.lyrics_body === input.lyrics_body && c.feedback === input.feedback,
      );
      if (repeat) return repeat;
      const mine = this.pending.getKeysCount({ start: [submitter.id, 0], end: [submitter.id, MAX_ID + 1] });
      if (mine >= limits.perSource) {
        throw new RefrainError('rate_limited', `this caller has ${mine} contributions awaiting review, the most allowed: send more once the operator has reviewed them`);
      }
      if (this.count('pending') >= limits.total) {
        throw new RefrainError('rate_limited', `${limits.total} contributions are awaiting review, the most this server keeps: try again once the operator has reviewed them`);
      }
      const id = (this.meta.get('seq') ?? 0) + 1;
      void this.meta.put('seq', id);
      const record: ContributionRecord = {
        contribution_id: id,
        ...input,
        lyrics_id: lyrics?.lyrics_id ?? 0,
        lyrics_hash: lyrics ? hashOf(lyrics.lyrics_body) : '',
        source: submitter.id,
        source_name: submitter.name,
        ...(submitter.user ? { user: submitter.user } : {}),
        submitted_time: isoSeconds(now),
        status: 'pending',
      };
      for (const k of ['lyrics_body', 'lyrics_language', 'feedback'] as const) if (record[k] === undefined) delete record[k];
      // Inside an asynchronous transaction's callback writes apply at once (as in works/store.ts).
      void this.records.put(id, record);
      void this.byStatus.put(['pending', id], '');
      void this.pending.put([submitter.id, id], '');
      return record;
    });
  }

  /** A submitter's pending contributions (at most the per-submitter limit's worth are ever there). */
  private pendingOf(source: string): ContributionRecord[] {
    const out: ContributionRecord[] = [];
    for (const key of this.pending.getKeys({ start: [source, 0], end: [source, MAX_ID + 1] })) {
      const record = this.records.get((key as [string, number])[1]);
      if (record) out.push(record);
    }
    return out;
  }

  /**
   * Approves a pending contribution, in one write transaction: lyrics replace the track's through the
   * import's write path (the track's line with the new lyrics: change log, feeds and index follow;
   * the track's other content is kept); feedback is marked as acted on. Throws when it is not pending
   * or its track is gone.
   */
  approve(id: number, now: number): ContributionRecord {
    return this.catalog.writeTransaction(() => {
      const record = this.pendingRecord(id);
      if (record.type === 'lyrics') {
        const track = this.catalog.getTrack(record.track_id);
        if (!track) throw new RefrainError('not_found', `contribution ${id}: track ${record.track_id} is no longer in the catalog (reject it)`);
        const line = JSON.parse(trackLine(this.catalog, this.works, track)) as Record<string, unknown> & { lyrics?: Record<string, unknown> };
        // The track and its lyrics take the approval's time; the lyrics keep their copyright, flags and restrictions.
        delete line.updated_time;
        const { updated_time: _u, ...lyrics } = line.lyrics ?? {};
        line.lyrics = { ...lyrics, lyrics_body: record.lyrics_body, lyrics_language: record.lyrics_language || lyrics.lyrics_language || '' };
        line.has_lyrics_crowd = 1;
        const parsed = importRecordSchema.safeParse(line);
        if (!parsed.success) throw new RefrainError('bad_request', `contribution ${id} cannot be applied: ${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`);
        applyWithin(this.catalog, [{ record: parsed.data, hash: hashOf(JSON.stringify(line)) }], now);
      }
      return this.review(record, 'approved', now);
    });
  }

  /** Rejects a pending contribution (the catalog is untouched), with the operator's reason if given. */
  reject(id: number, reason: string | undefined, now: number): ContributionRecord {
    return this.catalog.root.transactionSync(() => this.review(this.pendingRecord(id), 'rejected', now, reason));
  }

  private pendingRecord(id: number): ContributionRecord {
    const record = this.get(id);
    if (!record) throw new RefrainError('not_found', `no contribution ${id} (refrain contributions list shows them)`);
    if (record.status !== 'pending') throw new RefrainError('bad_request', `contribution ${id} was already ${record.status} at ${record.reviewed_time}`);
    return record;
  }

  private review(record: ContributionRecord, status: ContributionStatus, now: number, reason?: string): ContributionRecord {
    const id = record.contribution_id;
    const reviewed: ContributionRecord = { ...record, status, reviewed_time: isoSeconds(now), ...(reason ? { reason } : {}) };
    this.records.putSync(id, reviewed);
    this.byStatus.removeSync(['pending', id]);
    this.byStatus.putSync([status, id], '');
    this.pending.removeSync([record.source, id]);
    return reviewed;
  }
}
