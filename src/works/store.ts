/**
 * Works in the catalog's LMDB environment (docs/api.md, work.post). Databases:
 *   works             uint32 work_id → WorkRecord
 *   work-keys         [source, identifier] → work_id
 *   work-isrc         ISRC → WorkCredits[] (what each work naming it lends to its tracks)
 *   work-submissions  [work_id, submission id] → SubmissionRecord
 *   work-meta         `seq:<name>` counters, `party:…` party ids, `source:<id>` submitters,
 *                     `iswc:<ISWC>` → wgid
 * A submission is one write transaction: read, merge and write the work, its ISRC links, its
 * submission record and the change-log entries of the tracks it touches. LMDB admits one writer at
 * a time (across processes), so concurrent submissions of one work serialise and none is lost, and
 * a crash leaves the old work or the new one, never a mix.
 *
 * The transaction is asynchronous (issue 11, item 5): lmdb-js's write thread waits for the write
 * lock, which an import in another process may hold for seconds, and only then runs the callback
 * here, on the main thread, inside the transaction. A synchronous transaction would wait for that
 * lock on the event loop and stall every other request meanwhile.
 */
import type { Database, Key } from 'lmdb';
import { MAX_ID, STRUCTURES_KEY, type Catalog } from '../catalog/store.js';
import type { TrackRecord } from '../catalog/records.js';
import { isoSeconds } from '../util/date.js';
import { creditsOf, trackCredits, type WorkCredits } from './credits.js';
import { withCollection } from './history.js';
import type { OwnerRecord, SourceRecord, SubmissionRecord, WorkRecord } from './records.js';
import type { OwnerInput, WorkInput } from './schema.js';

/** Who submits: the key's key_id (or `oauth:<client_id>`) and its label (or the client's name). */
export interface Submitter {
  id: string;
  name: string;
}

export interface Submitted {
  work: WorkRecord;
  submissions: SubmissionRecord[];
  source: SourceRecord;
  /** Catalog tracks whose credits changed (each got a change-log entry). */
  tracks: number[];
}

export class WorkStore {
  private readonly works: Database<WorkRecord, number>;
  private readonly keys: Database<number, Key>;
  private readonly isrcs: Database<WorkCredits[], string>;
  private readonly submissions: Database<SubmissionRecord, Key>;
  private readonly meta: Database<unknown, string>;

  constructor(private readonly catalog: Catalog) {
    const root = catalog.root;
    this.works = root.openDB<WorkRecord, number>({ name: 'works', keyEncoding: 'uint32', sharedStructuresKey: STRUCTURES_KEY });
    this.keys = root.openDB<number, Key>({ name: 'work-keys' });
    this.isrcs = root.openDB<WorkCredits[], string>({ name: 'work-isrc' });
    this.submissions = root.openDB<SubmissionRecord, Key>({ name: 'work-submissions' });
    this.meta = root.openDB<unknown, string>({ name: 'work-meta' });
  }

  /** What the works naming an ISRC (canonical form) lend to its tracks; undefined when none does. */
  creditsFor(isrc: string): WorkCredits[] | undefined {
    return isrc ? this.isrcs.get(isrc) : undefined;
  }

  /** The writer and publisher lists a track shows: its own, then those of the works naming its ISRC. */
  creditsOfTrack(t: TrackRecord): ReturnType<typeof trackCredits> {
    return trackCredits(t, this.creditsFor(t.track_isrc));
  }

  get(workId: number): WorkRecord | undefined {
    return this.works.get(workId);
  }

  /** The work a source submitted under an identifier. */
  find(source: string, identifier: string): WorkRecord | undefined {
    const id = this.keys.get([source, identifier]);
    return id === undefined ? undefined : this.works.get(id);
  }

  /** A work's submissions, oldest first. */
  submissionsOf(workId: number): SubmissionRecord[] {
    return [...this.submissions.getRange({ start: [workId], end: [workId, MAX_ID + 1] })].map((e) => e.value);
  }

  /**
   * Stores a submission (one asynchronous write transaction) and resolves to the work as it now
   * stands. Reads inside the callback see the transaction, so reading the old work and writing the
   * new one is atomic, and put/remove in it apply at once (no promise to wait for). A nested (child)
   * transaction, so a throw part-way is rolled back rather than committed with the rest of the batch.
   */
  submit(submitter: Submitter, input: WorkInput, now: number): Promise<Submitted> {
    return this.catalog.root.childTransaction((): Submitted => {
      const time = isoSeconds(now);
      const old = this.find(submitter.id, input.identifier);
      const workId = old?.work_id ?? this.next('work');
      const source = this.touchSource(submitter, time);
      const collections = input.collection
        ? withCollection(old?.collections ?? [], { validity_begin: input.collection.validity_begin, territories: input.collection.territories })
        : (old?.collections ?? []);
      const ownerBegin = input.collection?.validity_begin ?? input.validity_begin ?? null;
      const owner = (type: OwnerRecord['type']) => (o: OwnerInput): OwnerRecord => ({
        ...o,
        id: this.party(type, o, submitter.id),
        type,
        validity_begin: o.validity_begin ?? ownerBegin,
      });
      const work: WorkRecord = {
        work_id: workId,
        wgid: this.group(input.iswc, workId),
        source: submitter.id,
        identifier: input.identifier,
        title: input.title,
        alternate_titles: input.alternate_titles,
        iswc: input.iswc,
        isrc: input.isrc,
        performers: input.performers,
        owners: { publisher: input.owners.publisher.map(owner('publisher')), writer: input.owners.writer.map(owner('writer')) },
        collections,
        validity_begin: input.validity_begin ?? collections[0]?.validity_begin ?? null,
        validity_end: input.validity_end ?? null,
        type_of_right: input.type_of_right,
        publisher_short_name: input.publisher_short_name,
        is_disabled: 0,
        created: old?.created ?? time,
        last_updated: time,
        last_transmission: input.transmission_date ?? time.slice(0, 10),
      };
      const touched = this.relink(old, work);
      this.works.put(workId, work);
      this.keys.put([submitter.id, input.identifier], workId);
      const submission: SubmissionRecord = {
        id: this.next('submission'),
        work_id: workId,
        source: submitter.id,
        filename: input.filename,
        creation_date: time,
        transmission_date: work.last_transmission,
        disabled: 0,
      };
      this.submissions.put([workId, submission.id], submission);
      const tracks = this.logTracks(touched, now);
      return { work, submissions: this.submissionsOf(workId), source, tracks };
    });
  }

  /**
   * Rewrites the credits kept per ISRC for a work; returns the ISRCs whose tracks now show
   * something else (all of them when the credits changed, else only those added or dropped).
   */
  private relink(old: WorkRecord | undefined, work: WorkRecord): string[] {
    const credits = creditsOf(work);
    const before = new Set(old?.isrc ?? []);
    const same = old !== undefined && JSON.stringify(creditsOf(old)) === JSON.stringify(credits);
    const touched: string[] = [];
    for (const isrc of before) {
      if (work.isrc.includes(isrc)) continue;
      const rest = (this.isrcs.get(isrc) ?? []).filter((c) => c.work_id !== work.work_id);
      if (rest.length) this.isrcs.put(isrc, rest);
      else this.isrcs.remove(isrc);
      touched.push(isrc);
    }
    for (const isrc of work.isrc) {
      if (same && before.has(isrc)) continue;
      const others = (this.isrcs.get(isrc) ?? []).filter((c) => c.work_id !== work.work_id);
      this.isrcs.put(isrc, [...others, credits].sort((a, b) => a.work_id - b.work_id));
      touched.push(isrc);
    }
    return touched;
  }

  /** A change-log entry (`put`, `track`) per catalog track of the ISRCs: the feeds and the index rebuild see it. */
  private logTracks(isrcs: readonly string[], now: number): number[] {
    const tracks = [...new Set(isrcs.flatMap((isrc) => this.catalog.idsOf('isrc', isrc)))].sort((a, b) => a - b);
    let seq = this.catalog.lastChange();
    for (const id of tracks) this.catalog.changes.put(++seq, { op: 'put', kind: 'track', id, at: now });
    return tracks;
  }

  private next(counter: string): number {
    const n = ((this.meta.get(`seq:${counter}`) as number | undefined) ?? 0) + 1;
    this.meta.put(`seq:${counter}`, n);
    return n;
  }

  /** A party's id: by IPI name number when given (the same party in every work), else by name within the source. */
  private party(type: OwnerRecord['type'], o: OwnerInput, source: string): number {
    const key = o.ipi ? `party:ipi:${o.ipi}` : `party:name:${type}:${source}:${o.name.toLowerCase()}`;
    const known = this.meta.get(key) as number | undefined;
    if (known !== undefined) return known;
    const id = this.next('party');
    this.meta.put(key, id);
    return id;
  }

  /** The work group: works sharing an ISWC share the wgid of the first of them; without one a work is its own group. */
  private group(iswc: string, workId: number): string {
    if (!iswc) return String(workId);
    const known = this.meta.get(`iswc:${iswc}`) as string | undefined;
    if (known) return known;
    this.meta.put(`iswc:${iswc}`, String(workId));
    return String(workId);
  }

  private touchSource(submitter: Submitter, time: string): SourceRecord {
    const key = `source:${submitter.id}`;
    const known = this.meta.get(key) as SourceRecord | undefined;
    const source: SourceRecord = known
      ? { ...known, sender_name: submitter.name || known.sender_name, last_updated: time }
      : { id: this.next('source'), sender_id: submitter.id, sender_name: submitter.name, created: time, last_updated: time };
    this.meta.put(key, source);
    return source;
  }
}
