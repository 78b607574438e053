/**
 * Writers and publishers that works lend to catalog tracks by ISRC. The works store keeps, per
 * ISRC, the credits of every work naming it (`work-isrc`), rewritten with each submission, so a
 * track shows them with one small read whether the work came before or after the track: the join
 * happens when a track is shown or indexed, never by copying into track records.
 */
import type { TrackRecord } from '../catalog/records.js';
import type { WorkRecord } from './records.js';

/** A credited party as tracks show it. */
export interface Party {
  name: string;
  ipi: string;
  role: string;
}

/** What one work lends to the tracks of its ISRCs. */
export interface WorkCredits {
  work_id: number;
  writers: Party[];
  publishers: Party[];
}

export const creditsOf = (w: WorkRecord): WorkCredits => ({
  work_id: w.work_id,
  writers: w.owners.writer.map((o) => ({ name: o.name, ipi: o.ipi, role: o.role })),
  publishers: w.owners.publisher.map((o) => ({ name: o.name, ipi: o.ipi, role: o.role })),
});

/** The credits of a list of works as writer_list / publisher_list entries, each party once. */
export function creditLists(works: readonly WorkCredits[], own: { writer_list: unknown[]; publisher_list: unknown[] }) {
  const writers = new Set(own.writer_list.map(nameOf));
  const publishers = new Set(own.publisher_list.map(nameOf));
  const writer_list = [...own.writer_list];
  const publisher_list = [...own.publisher_list];
  for (const w of works) {
    for (const p of w.writers) {
      if (once(writers, p)) writer_list.push({ writer: { writer_name: p.name, writer_ipi: p.ipi, writer_role: p.role, work_id: w.work_id } });
    }
    for (const p of w.publishers) {
      if (once(publishers, p)) publisher_list.push({ publisher: { publisher_name: p.name, publisher_ipi: p.ipi, publisher_role: p.role, work_id: w.work_id } });
    }
  }
  return { writer_list, publisher_list };
}

/** Writer names a track gets from works (for the `q_writer` index). */
export const writerNames = (works: readonly WorkCredits[]): string[] => works.flatMap((w) => w.writers.map((p) => p.name));

/** The credits a track shows: its own lists, then those of the works linked by its ISRC. */
export function trackCredits(t: TrackRecord, linked: readonly WorkCredits[] | undefined) {
  const own = { writer_list: t.writer_list, publisher_list: t.publisher_list };
  return linked?.length ? creditLists(linked, own) : own;
}

/** Adds a party's key (IPI, else its name) to `seen`; false when it was there already. */
function once(seen: Set<string>, p: Party): boolean {
  const keys = [p.ipi && `ipi:${p.ipi}`, p.name.toLowerCase()].filter(Boolean) as string[];
  if (keys.some((k) => seen.has(k))) return false;
  for (const k of keys) seen.add(k);
  return true;
}

/** The name an imported writer_list / publisher_list entry gives (a string or an object naming one), lower case. */
function nameOf(entry: unknown): string {
  if (typeof entry === 'string') return entry.toLowerCase();
  if (!entry || typeof entry !== 'object') return '';
  const o = entry as Record<string, unknown>;
  const inner = (o.writer ?? o.publisher ?? o) as Record<string, unknown>;
  const name = inner.writer_name ?? inner.publisher_name ?? inner.name;
  return typeof name === 'string' ? name.toLowerCase() : '';
}
