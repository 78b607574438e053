/**
 * URLs Refrain puts in responses: tracking URLs (pixel, script, html) that point at Refrain's own
 * `/t1.0/` endpoints and record a hit per key and track, and the share/edit pages of a track.
 *
 * A tracking token names the key, the track and the content kind, and when it expires, and carries an
 * HMAC so hits cannot be forged for other keys or tracks, nor tokens made to live longer:
 * `<track_id base36>.<content>.<key_id>.<expiry, Unix seconds base36>.<mac>` (`--tracking-token-ttl`,
 * default 7 days). Tokens made before expiries existed (`<track>.<content>.<key_id>.<mac>`) are
 * taken as made at `legacySince` (the first start of a server that gives expiring tokens): they
 * expire one TTL after it, as they would have had they carried an expiry from then on.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hmac256 } from '../util/hmac.js';
import { artistPath } from '../util/slug.js';
import type { TrackedContent, TrackingHit } from '../auth/hits.js';

export type { TrackedContent, TrackingHit };
export type TrackingKind = 'js' | 'img' | 'html';

const CONTENT_CODE: Record<TrackedContent, string> = {
  lyrics: 'l', subtitle: 's', richsync: 'r', snippet: 'n', lyrics_translation: 't', subtitle_translation: 'u',
};
const CODE_CONTENT = new Map(Object.entries(CONTENT_CODE).map(([content, code]) => [code, content as TrackedContent]));

export interface TrackingOptions {
  /** Lifetime of a tracking token in seconds. */
  ttlSeconds: number;
  /** When tokens without an expiry are taken to have been made (ms since the epoch). */
  legacySince: number;
  clock?: () => number;
}

/** The default lifetime of a tracking token: 7 days (`--tracking-token-ttl`). */
export const DEFAULT_TRACKING_TTL = 7 * 86_400;

export interface TrackingUrls {
  script_tracking_url: string;
  pixel_tracking_url: string;
  html_tracking_url: string;
}

/**
 * The public pages of a track or an artist, which Refrain serves itself: all a method answering in
 * an index worker needs of the links (no tracking URL is made there, so no secret is held there).
 */
export class PageLinks {
  /** Where the server is reached (its public URL, or http://localhost:PORT once it listens). */
  constructor(readonly baseUrl: string) {}

  /** The track's public page (its path is derived at import: `share_path`). */
  sharePage(t: { share_path: string }): string {
    return this.baseUrl + t.share_path;
  }

  editPage(t: { share_path: string }): string {
    return `${this.baseUrl}${t.share_path}/edit`;
  }

  /** The artist's public page: `/artist/<artist_id>/<name>` (its edit page adds `/edit`). */
  artistPage(a: { artist_id: number; artist_name: string }): string {
    return `${this.baseUrl}${artistPath(a)}`;
  }
}

export class Links extends PageLinks {
  private readonly ttlMs: number;
  private readonly legacyExpires: number;
  private readonly clock: () => number;
  private readonly hmac: Hmac256;

  constructor(
    baseUrl: string,
    secret: Buffer,
    options: TrackingOptions = { ttlSeconds: DEFAULT_TRACKING_TTL, legacySince: Date.now() },
  ) {
    super(baseUrl);
    this.hmac = new Hmac256(secret);
    this.ttlMs = options.ttlSeconds * 1000;
    this.legacyExpires = options.legacySince + this.ttlMs;
    this.clock = options.clock ?? Date.now;
  }

  private mac(payload: string): string {
    // 96 bits of the HMAC-SHA256 (a token is one per hit, and a URL is better short).
    return this.hmac.digest(payload).toString('base64url', 0, 12);
  }

  tracking(keyId: string, trackId: number, content: TrackedContent): TrackingUrls {
    const expires = Math.ceil((this.clock() + this.ttlMs) / 1000);
    const payload = `${trackId.toString(36)}.${CONTENT_CODE[content]}.${keyId}.${expires.toString(36)}`;
    const token = `${payload}.${this.mac(payload)}`;
    return {
      script_tracking_url: `${this.baseUrl}/t1.0/js/${token}`,
      pixel_tracking_url: `${this.baseUrl}/t1.0/img/${token}`,
      html_tracking_url: `${this.baseUrl}/t1.0/html/${token}`,
    };
  }

  /**
   * The hit a token stands for, or undefined when it is malformed or its MAC is wrong. An expired
   * token still gives its hit (with `expires` in the past): the caller says "expired", not "unknown".
   */
  verify(token: string): TrackingHit | undefined {
    const parts = token.split('.');
    if (parts.length !== 4 && parts.length !== 5) return undefined;
    const mac = parts.pop()!;
    const expected = Buffer.from(this.mac(parts.join('.')));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const [track, code, keyId, expiry] = parts;
    const trackId = parseInt(track, 36);
    const content = CODE_CONTENT.get(code);
    const expires = expiry === undefined ? this.legacyExpires : parseInt(expiry, 36) * 1000;
    if (!content || !Number.isSafeInteger(trackId) || !Number.isSafeInteger(expires)) return undefined;
    return { keyId, trackId, content, expires };
  }

  /** The token lifetime in words (`7 days`, `1 hour`, `90 s`), for the answer to an expired token. */
  ttlText(): string {
    const s = this.ttlMs / 1000;
    for (const [unit, n] of [['day', 86_400], ['hour', 3600], ['minute', 60]] as const) {
      if (s % n === 0) return `${s / n} ${unit}${s === n ? '' : 's'}`;
    }
    return `${s} s`;
  }

  /** Whether a verified token's hit still counts. */
  live(hit: TrackingHit): boolean {
    return this.clock() < hit.expires;
  }
}
