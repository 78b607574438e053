/**
 * What the works store keeps (src/works/store.ts). A work is stored once per (source, identifier);
 * its submissions are kept apart so that reading a work's credits for a track stays one small read.
 */

/** A writer or publisher of a work, as stored: shares in hundredths of a percent. */
export interface OwnerRecord {
  /** Party id: the same for every work naming the same IPI (or, without one, the same name from the same source). */
  id: number;
  type: 'writer' | 'publisher';
  name: string;
  identifier: string;
  ipi: string;
  role: string;
  controlled: 'Y' | 'N';
  mech_ownership_share: number;
  perf_ownership_share: number;
  sync_ownership_share: number;
  mech_society: string;
  perf_society: string;
  sync_society: string;
  validity_begin: string | null;
}

export interface TerritoryRecord {
  /** Canonical territory code (src/works/territories.ts); its countries are expanded when shown. */
  code: string;
  mech_share: number;
  perf_share: number;
  sync_share: number;
  publisher: string | null;
}

export interface CollectionRecord {
  validity_begin: string;
  /** The day before the next collection begins; null for the latest. */
  validity_end: string | null;
  territories: TerritoryRecord[];
}

export interface WorkRecord {
  work_id: number;
  wgid: string;
  /** Who submitted it: an API key's key_id, or `oauth:<client_id>` for a token. */
  source: string;
  identifier: string;
  title: string;
  alternate_titles: string[];
  iswc: string;
  /** Canonical ISRCs (12 characters, upper case): the catalog tracks the work links to. */
  isrc: string[];
  performers: string[];
  owners: { publisher: OwnerRecord[]; writer: OwnerRecord[] };
  /** Ordered by validity_begin. */
  collections: CollectionRecord[];
  validity_begin: string | null;
  validity_end: string | null;
  type_of_right: string;
  publisher_short_name: string;
  is_disabled: 0 | 1;
  created: string;
  last_updated: string;
  /** YYYY-MM-DD of the latest submission (shown as the spec's `last_trasmission`). */
  last_transmission: string;
}

export interface SubmissionRecord {
  id: number;
  work_id: number;
  source: string;
  filename: string;
  /** When Refrain stored it (ISO 8601 UTC). */
  creation_date: string;
  /** YYYY-MM-DD: the submitter's `transmission_date`, else the day it arrived. */
  transmission_date: string;
  disabled: 0 | 1;
}

/** A submitter, as the Work record's `source` shows it. */
export interface SourceRecord {
  id: number;
  sender_id: string;
  sender_name: string;
  created: string;
  last_updated: string;
}
