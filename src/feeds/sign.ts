/**
 * Signed, expiring download URLs of feed files (spec: "a signed temporary URL"):
 * `<base>/feeds/<file>?expires=<unix seconds>&signature=<base64url HMAC-SHA256 of "<path>\n<expires>">`.
 * The key lives in the data directory (`secrets/feeds.key`), so URLs stay valid across restarts and
 * every process serving that directory agrees on them. Anyone holding a URL may download until it
 * expires: that is what lets a partner hand it to a download tool without its API key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Verdict = 'ok' | 'invalid' | 'expired';

const EXPIRES = /^\d{1,12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export class FeedSigner {
  constructor(private readonly key: Buffer) {}

  private mac(path: string, expires: string): string {
    return createHmac('sha256', this.key).update(`${path}\n${expires}`).digest('base64url');
  }

  /** The path's URL under `baseUrl`, valid for `ttlSeconds` from `now` (ms). */
  url(baseUrl: string, path: string, now: number, ttlSeconds: number): string {
    const expires = String(Math.floor(now / 1000) + ttlSeconds);
    return `${baseUrl}${path}?expires=${expires}&signature=${this.mac(path, expires)}`;
  }

  /** Whether a request for `path` carries a valid, unexpired signature at `now` (ms). */
  verify(path: string, expires: string | null, signature: string | null, now: number): Verdict {
    if (!expires || !signature || !EXPIRES.test(expires) || !SIGNATURE.test(signature)) return 'invalid';
    // Compared as text: decoding base64url would accept other spellings of the last character.
    if (!timingSafeEqual(Buffer.from(signature), Buffer.from(this.mac(path, expires)))) return 'invalid';
    return Number(expires) * 1000 <= now ? 'expired' : 'ok';
  }
}
