/**
 * Hmac256 (src/util/hmac.ts): the same bytes as Node's createHmac for keys shorter than, equal to
 * and longer than a block, and for messages across every padding boundary (55/56/64 bytes), in
 * several scripts; a digest does not change when the next one is made.
 */
import crypto from 'node:crypto';
import t from 'tap';
import { Hmac256 } from '../../src/util/hmac.js';

const reference = (key: Buffer, message: string) => crypto.createHmac('sha256', key).update(message).digest();

t.test('equals createHmac for every key size and message length around the block boundaries', async (t) => {
  let mismatches = 0;
  let checked = 0;
  for (const keyLength of [0, 1, 16, 32, 63, 64, 65, 100, 200]) {
    const key = crypto.createHash('sha512').update(`key ${keyLength}`).digest().subarray(0, Math.min(64, keyLength));
    const longKey = keyLength > 64 ? Buffer.concat([key, Buffer.alloc(keyLength - 64, 7)]) : key;
    const mac = new Hmac256(longKey);
    for (let length = 0; length <= 200; length++) {
      const ascii = 'x'.repeat(length);
      const mixed = 'é€😀a'.repeat(Math.ceil(length / 4)).slice(0, length);
      for (const message of [ascii, mixed]) {
        checked++;
        if (!mac.digest(message).equals(reference(longKey, message))) mismatches++;
      }
    }
  }
  t.equal(mismatches, 0, `all of ${checked} digests equal createHmac's`);
});

t.test('a long message after short ones, and a digest kept across calls', async (t) => {
  const key = Buffer.from('tracking secret');
  const mac = new Hmac256(key);
  const first = mac.digest('3f.l.key.abc');
  const copy = Buffer.from(first);
  const long = 'ä'.repeat(5000);
  t.same(mac.digest(long), reference(key, long), 'a message longer than the first buffer');
  t.same(first, copy, 'the earlier digest is unchanged');
  t.same(mac.digest('3f.l.key.abc'), reference(key, '3f.l.key.abc'), 'short again');
});
