/**
 * A full feed replaces the replica's catalog: after importing it (upserts; unchanged lines are
 * no-ops), every track, album and artist the feed does not hold is deleted, so the replica ends with
 * exactly the primary's records — including deletes whose incremental feed it never saw.
 */
import { everyId, type Catalog } from '../catalog/store.js';
import { applyBatch } from '../catalog/write.js';
import type { HashedRecord } from '../catalog/parse.js';
import type { RecordKind } from './lines.js';

const BATCH = 2000;

/** Delete the records absent from `present`; returns how many were deleted (cascades included once). */
export function removeAbsent(catalog: Catalog, present: Record<RecordKind, Set<number>>): number {
  catalog.refresh();
  // Collected first: LMDB range reads must not run over keys the same loop deletes.
  const doomed: HashedRecord[] = [];
  const absent = (kind: RecordKind, keys: Iterable<unknown>) => {
    for (const key of keys) {
      const id = key as number;
      if (!present[kind].has(id)) doomed.push({ record: { type: 'delete', [`${kind}_id`]: id } as HashedRecord['record'], hash: '' });
    }
  };
  absent('track', catalog.trackIds());
  absent('album', catalog.albums.getKeys(everyId()));
  absent('artist', catalog.artists.getKeys(everyId()));
  let deleted = 0;
  for (let i = 0; i < doomed.length; i += BATCH) {
    for (const outcome of applyBatch(catalog, doomed.slice(i, i + BATCH))) if (outcome === 'deleted') deleted++;
  }
  return deleted;
}
