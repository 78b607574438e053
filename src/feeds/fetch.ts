/**
 * The replica's side of the feeds protocol: list a primary's feeds (tracks.dump.get), download one
 * into a temporary file while hashing it, and check it before anything is applied — the SHA-256
 * the primary announces (`Repr-Digest`, else `ETag`), the length, and a whole gunzip pass (gzip's
 * CRC-32 and length trailer catch a cut or corrupted stream) that also collects the ids a full feed
 * holds, so the replica can drop what the primary no longer has.
 */
import { createWriteStream, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { RefrainError } from '../errors.js';
import { measuringStream } from '../util/measuring-stream.js';
import { linesOf } from '../catalog/lines.js';
import type { FeedEntry } from './listing.js';
import type { RecordKind } from './lines.js';

/** The primary server and the credentials that may list its feeds. */
export interface Primary {
  base: string;
  apikey?: string;
  bearer?: string;
}

const listingSchema = z.array(z.object({ id: z.number().int().min(1), created: z.string(), full: z.boolean(), download_url: z.url() }));

const describe = (e: unknown): string => {
  const cause = (e as { cause?: { message?: string } }).cause?.message;
  return `${(e as Error).message}${cause ? ` (${cause})` : ''}`;
};

/** The primary's current feeds: its latest full feed, then the incremental ones after it. */
export async function listFeeds(primary: Primary, signal?: AbortSignal): Promise<FeedEntry[]> {
  const url = new URL(`${primary.base.replace(/\/+$/, '')}/ws/1.1/tracks.dump.get`);
  if (primary.apikey) url.searchParams.set('apikey', primary.apikey);
  const headers: Record<string, string> = primary.bearer ? { authorization: `Bearer ${primary.bearer}` } : {};
  let text: string;
  let status: number;
  try {
    const res = await fetch(url, { headers, signal });
    status = res.status;
    text = await res.text();
  } catch (e) {
    throw new RefrainError('unavailable', `cannot list the feeds of ${primary.base}: ${describe(e)}`);
  }
  let header: { status_code?: number; hint?: string } | undefined;
  let body: unknown;
  try {
    ({ header, body } = (JSON.parse(text) as { message: { header: typeof header; body: unknown } }).message);
  } catch {
    throw new RefrainError('unavailable', `${primary.base} answered tracks.dump.get with HTTP ${status} and no API envelope: is it a Refrain server?`);
  }
  if (header?.status_code !== 200) {
    throw new RefrainError('unavailable', `${primary.base} refused tracks.dump.get: ${header?.status_code ?? status} ${header?.hint ?? ''}`.trim());
  }
  const parsed = listingSchema.safeParse(body);
  if (!parsed.success) throw new RefrainError('unavailable', `${primary.base} sent a feed listing of another shape: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** The SHA-256 (hex) a download announces: `Repr-Digest: sha-256=:<base64>:`, else a hex `ETag`. */
export function announcedSha256(headers: Headers): string | undefined {
  const digest = /sha-256=:([A-Za-z0-9+/=]+):/.exec(headers.get('repr-digest') ?? '');
  if (digest) return Buffer.from(digest[1], 'base64').toString('hex');
  return /^(?:W\/)?"?([0-9a-f]{64})"?$/i.exec(headers.get('etag') ?? '')?.[1]?.toLowerCase();
}

export interface Downloaded {
  file: string;
  bytes: number;
  sha256: string;
}

/** Download a feed into `dir`; throws (leaving no file) unless it arrived whole and matches its digest. */
export async function downloadFeed(entry: FeedEntry, dir: string, signal?: AbortSignal): Promise<Downloaded> {
  let res: Response;
  try {
    res = await fetch(entry.download_url, { signal });
  } catch (e) {
    throw new RefrainError('unavailable', `feed ${entry.id}: download failed: ${describe(e)}`);
  }
  if (!res.ok || !res.body) {
    const why = res.status === 404 ? 'pruned on the primary meanwhile' : res.status === 403 ? 'its URL expired or was refused' : `HTTP ${res.status}`;
    await res.body?.cancel();
    throw new RefrainError('unavailable', `feed ${entry.id}: ${why}; the next sync lists the feeds again`);
  }
  const announced = announcedSha256(res.headers);
  const length = Number(res.headers.get('content-length') ?? NaN);
  const file = path.join(dir, `feed-${entry.id}.download`);
  const measure = measuringStream();
  try {
    await pipeline(Readable.fromWeb(res.body as ReadableStream<Uint8Array>), measure.stream, createWriteStream(file), { signal });
    const bytes = measure.bytes();
    const sha256 = measure.sha256();
    if (!announced) throw new RefrainError('integrity', `feed ${entry.id}: the primary sent no SHA-256 (Repr-Digest or ETag) to check it against`);
    if (Number.isFinite(length) && bytes !== length) throw new RefrainError('integrity', `feed ${entry.id}: ${bytes} of ${length} bytes arrived`);
    if (sha256 !== announced) throw new RefrainError('integrity', `feed ${entry.id}: SHA-256 ${sha256} does not match the announced ${announced}`);
    return { file, bytes, sha256 };
  } catch (e) {
    rmSync(file, { force: true });
    if (e instanceof RefrainError) throw e;
    throw new RefrainError('integrity', `feed ${entry.id}: the download broke off after ${measure.bytes()} bytes: ${describe(e)}`);
  }
}

/** What a checked feed file holds. */
export interface FeedContents {
  lines: number;
  /** Ids of the records a full feed holds (absent for incremental feeds). */
  ids?: Record<RecordKind, Set<number>>;
}

// Feed lines start with their type and id (lines.ts); anything else is parsed.
const HEAD = /^\{"type":"(track|album|artist)","(?:track|album|artist)_id":(\d+)[,}]/;

/** Read a downloaded feed through gunzip: throws an `integrity` RefrainError unless it is one whole gzip stream. */
export async function checkFeed(file: string, entry: FeedEntry): Promise<FeedContents> {
  const magic = Buffer.alloc(2);
  const fh = await open(file, 'r');
  await fh.read(magic, 0, 2, 0).finally(() => fh.close());
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) throw new RefrainError('integrity', `feed ${entry.id}: not a gzip file`);
  const ids = entry.full ? { track: new Set<number>(), album: new Set<number>(), artist: new Set<number>() } : undefined;
  let lines = 0;
  try {
    for await (const { text } of linesOf(file)) {
      lines++;
      if (!ids) continue;
      const m = HEAD.exec(text);
      if (m) ids[m[1] as RecordKind].add(Number(m[2]));
      else addParsed(ids, text);
    }
  } catch (e) {
    throw new RefrainError('integrity', `feed ${entry.id}: its gzip stream is damaged (${describe(e)})`);
  }
  return { lines, ids };
}

function addParsed(ids: Record<RecordKind, Set<number>>, text: string): void {
  try {
    const r = JSON.parse(text) as Record<string, unknown>;
    const kind = r.type as RecordKind;
    if (kind in ids && typeof r[`${kind}_id`] !== 'undefined') ids[kind].add(Number(r[`${kind}_id`]));
  } catch {
    // A bad line is the import's to report, with its line number.
  }
}
