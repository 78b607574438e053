/**
 * Everything a catalog stores, as plain data, for comparing a replica with its primary: records
 * (without the import bookkeeping `hash` and `derived`, which a feed does not carry; tracks with the
 * writers and publishers the API shows, their own and those works lend them), content and every
 * secondary index.
 */
import { CONTENT_KINDS, INDEXES, type Catalog } from '../../src/catalog/store.js';
import type { TrackRecord } from '../../src/catalog/records.js';
import { trackCredits } from '../../src/works/credits.js';
import { WorkStore } from '../../src/works/store.js';

const END = 0xffff_ffff;

function records(db: { getRange(o: object): Iterable<{ key: unknown; value: unknown }> }): [unknown, Record<string, unknown>][] {
  return [...db.getRange({ start: 1, end: END })].map(({ key, value }) => {
    const { hash: _h, derived: _d, ...rest } = value as Record<string, unknown>;
    return [key, rest] as [unknown, Record<string, unknown>];
  });
}

export function catalogState(catalog: Catalog): Record<string, unknown> {
  catalog.refresh();
  const works = new WorkStore(catalog);
  return {
    tracks: records(catalog.tracks).map(([id, t]) => {
      const track = t as unknown as TrackRecord;
      return [id, { ...t, ...trackCredits(track, works.creditsFor(track.track_isrc)) }];
    }),
    artists: records(catalog.artists),
    albums: records(catalog.albums),
    ...Object.fromEntries(CONTENT_KINDS.map((k) => [k, records(catalog.content[k])])),
    ...Object.fromEntries(INDEXES.map((i) => [`idx:${i}`, [...catalog.index[i].getKeys()]])),
  };
}
