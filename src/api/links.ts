/**
 * URLs Refrain puts in responses: tracking URLs (pixel, script, html) that point at Refrain's own
 * `/t1.0/` endpoints and record a hit per key and track, and the share/edit pages of a track.
 *
 * A tracking token names the key, the track and the content kind, and carries an HMAC so hits cannot
 * be forged for other keys or tracks: `<track_id base36>.<content>.<key_id>.<mac>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type TrackedContent = 'lyrics' | 'subtitle' | 'richsync' | 'snippet';
export type TrackingKind = 'js' | 'img' | 'html';

const CONTENT_CODE: Record<TrackedContent, string> = { lyrics: 'l', subtitle: 's', richsync: 'r', snippet: 'n' };
const CODE_CONTENT: Record<string, TrackedContent> = { l: 'lyrics', s: 'subtitle', r: 'richsync', n: 'snippet' };

export interface TrackingHit {
  keyId: string;
  trackId: number;
  content: TrackedContent;
}

export interface TrackingUrls {
  script_tracking_url: string;
  pixel_tracking_url: string;
  html_tracking_url: string;
}

export class Links {
  /** Set once the server knows its port (it may listen on port 0). */
  baseUrl: string;

  constructor(baseUrl: string, private readonly secret: Buffer) {
    this.baseUrl = baseUrl;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 16);
  }

  tracking(keyId: string, trackId: number, content: TrackedContent): TrackingUrls {
    const payload = `${trackId.toString(36)}.${CONTENT_CODE[content]}.${keyId}`;
    const token = `${payload}.${this.mac(payload)}`;
    return {
      script_tracking_url: `${this.baseUrl}/t1.0/js/${token}`,
      pixel_tracking_url: `${this.baseUrl}/t1.0/img/${token}`,
      html_tracking_url: `${this.baseUrl}/t1.0/html/${token}`,
    };
  }

  /** The hit a token stands for, or undefined when it is malformed or its MAC is wrong. */
  verify(token: string): TrackingHit | undefined {
    const parts = token.split('.');
    if (parts.length !== 4) return undefined;
    const [track, code, keyId, mac] = parts;
    const expected = Buffer.from(this.mac(`${track}.${code}.${keyId}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const trackId = parseInt(track, 36);
    const content = CODE_CONTENT[code];
    if (!content || !Number.isSafeInteger(trackId)) return undefined;
    return { keyId, trackId, content };
  }

  /** The track's public page (its path is derived at import: `share_path`). */
  sharePage(t: { share_path: string }): string {
    return this.baseUrl + t.share_path;
  }

  editPage(t: { share_path: string }): string {
    return `${this.baseUrl}${t.share_path}/edit`;
  }
}
