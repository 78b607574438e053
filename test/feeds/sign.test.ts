/** Signed download URLs (src/feeds/sign.ts): what they cover, and when they stop working. */
import t from 'tap';
import { FeedSigner } from '../../src/feeds/sign.js';

const signer = new FeedSigner(Buffer.alloc(32, 7));
const NOW = Date.parse('2026-11-22T03:00:00Z');
const PATH = '/feeds/feed-000001-full.jsonl.gz';

function parts(url: string): { path: string; expires: string | null; signature: string | null } {
  const u = new URL(url);
  return { path: u.pathname, expires: u.searchParams.get('expires'), signature: u.searchParams.get('signature') };
}

t.test('a URL verifies for its path until it expires', async (t) => {
  const url = signer.url('https://lyrics.example', PATH, NOW, 3600);
  t.match(url, /^https:\/\/lyrics\.example\/feeds\/feed-000001-full\.jsonl\.gz\?expires=\d+&signature=[\w-]{43}$/);
  const { path, expires, signature } = parts(url);
  t.equal(Number(expires), NOW / 1000 + 3600);
  t.equal(signer.verify(path, expires, signature, NOW), 'ok');
  t.equal(signer.verify(path, expires, signature, NOW + 3_599_999), 'ok', 'until the last millisecond');
  t.equal(signer.verify(path, expires, signature, NOW + 3_600_000), 'expired', 'then expired');
});

t.test('anything changed is invalid', async (t) => {
  const { path, expires, signature } = parts(signer.url('http://x', PATH, NOW, 60));
  t.equal(signer.verify('/feeds/feed-000002-full.jsonl.gz', expires, signature, NOW), 'invalid', 'another path');
  t.equal(signer.verify(path, String(Number(expires) + 1), signature, NOW), 'invalid', 'another expiry');
  for (const i of [0, 20, 42]) {
    const s = signature!;
    const changed = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    t.equal(signer.verify(path, expires, changed, NOW), 'invalid', `signature character ${i}`);
  }
  t.equal(signer.verify(path, null, signature, NOW), 'invalid', 'no expiry');
  t.equal(signer.verify(path, expires, null, NOW), 'invalid', 'no signature');
  t.equal(signer.verify(path, '1e12', signature, NOW), 'invalid', 'a malformed expiry');
  t.equal(signer.verify(path, expires, signature!.slice(1), NOW), 'invalid', 'a short signature');
  t.equal(new FeedSigner(Buffer.alloc(32, 8)).verify(path, expires, signature, NOW), 'invalid', 'another key');
});
