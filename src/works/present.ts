/**
 * The spec's Work record (message.body of work.post) from a stored work, its submissions and its
 * source. Every field of the spec's table is there, spellings included (`last_trasmission`).
 */
import type { OwnerRecord, SourceRecord, SubmissionRecord, WorkRecord } from './records.js';
import { ownershipTotals, RIGHTS } from './shares.js';
import { territoryCountries } from './territories.js';

export function presentWork(w: WorkRecord, submissions: readonly SubmissionRecord[], source: SourceRecord): Record<string, unknown> {
  const controlled = (list: readonly OwnerRecord[]) => list.filter((o) => o.controlled === 'Y');
  const totals = ownershipTotals(w.owners);
  const controlledTotals = ownershipTotals({ writer: controlled(w.owners.writer), publisher: controlled(w.owners.publisher) });
  return {
    work_id: w.work_id,
    wgid: w.wgid,
    identifier: w.identifier,
    title: w.title,
    alternate_titles: w.alternate_titles.map((title) => ({ title })),
    iswc: w.iswc,
    isrc: w.isrc,
    performers: w.performers.map((name) => ({ name })),
    owners: { publisher: w.owners.publisher.map(presentOwner), writer: w.owners.writer.map(presentOwner) },
    ownership: RIGHTS.map((r) => ({
      type_of_right: r,
      share: totals[r].writers + totals[r].publishers,
      controlled_share: controlledTotals[r].writers + controlledTotals[r].publishers,
    })),
    collections: Object.fromEntries(
      w.collections.map((c) => [
        c.validity_begin,
        {
          territories: c.territories.map((t) => ({
            code: t.code,
            countries: territoryCountries(t.code) ?? [],
            mech_share: t.mech_share,
            perf_share: t.perf_share,
            publisher: t.publisher,
            sync_share: t.sync_share,
          })),
          validity_begin: c.validity_begin,
          validity_end: c.validity_end,
        },
      ]),
    ),
    publisher_short_name: w.publisher_short_name,
    type_of_right: w.type_of_right,
    validity_begin: w.validity_begin,
    validity_end: w.validity_end,
    is_disabled: w.is_disabled,
    // The spec spells it so (docs/design.md §3: field spellings are the spec's, typos included).
    last_trasmission: w.last_transmission,
    source: {
      id: source.id,
      sender_id: source.sender_id,
      sender_name: source.sender_name,
      short_name: w.publisher_short_name || source.sender_name,
      description: source.sender_name,
      affiliation: '',
      control: w.owners.writer.some((o) => o.controlled === 'Y') || w.owners.publisher.some((o) => o.controlled === 'Y'),
      credits_priority: 0,
      report: false,
      type_of_right: w.type_of_right,
      created: source.created,
      last_updated: source.last_updated,
      validity_begin: w.validity_begin,
      validity_end: w.validity_end,
    },
    submissions: submissions.map((s) => ({
      id: s.id,
      source: s.source,
      filename: s.filename,
      creation_date: s.creation_date,
      transmission_date: s.transmission_date,
      disabled: s.disabled,
    })),
    tablespace: '',
  };
}

function presentOwner(o: OwnerRecord): Record<string, unknown> {
  return {
    id: o.id,
    type: o.type,
    name: o.name,
    identifier: o.identifier,
    ipi: o.ipi,
    role: o.role,
    controlled: o.controlled,
    mech_ownership_share: o.mech_ownership_share,
    perf_ownership_share: o.perf_ownership_share,
    sync_ownership_share: o.sync_ownership_share,
    mech_society: o.mech_society,
    perf_society: o.perf_society,
    sync_society: o.sync_society,
    validity_begin: o.validity_begin,
  };
}
