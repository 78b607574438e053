/**
 * HMAC-SHA256 of short messages for the hot path: tracking tokens, made for every content answer.
 *
 * Node's `createHmac` (or two one-shot `crypto.hash` calls) goes through OpenSSL 3, which fetches the
 * digest, builds its contexts and a native object on every call (~2 µs in a loop). This is the same
 * MAC (RFC 2104, H(K ⊕ opad ‖ H(K ⊕ ipad ‖ m)), FIPS 180-4's SHA-256) computed in JavaScript from the
 * two padded key blocks compressed once, so a short message costs two compressions and allocates
 * nothing but its result: 1.2 µs in the same loop, and in a CPU profile of a server answering
 * uncached `track.lyrics.get` the MAC went from 9% to 6% of the busy main thread
 * (docs/benchmarks.md). Checked against `createHmac` by test/util/hmac.test.ts.
 */
import crypto from 'node:crypto';

const BLOCK = 64;

/** SHA-256's round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256's initial state: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const IV = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** The message schedule, shared: compression never yields. */
const W = new Int32Array(64);

/** One SHA-256 compression of the 64 bytes of `block` at `at` into `state`. */
function compress(state: Int32Array, block: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4) W[i] = (block[at] << 24) | (block[at + 1] << 16) | (block[at + 2] << 8) | block[at + 3];
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15];
    const w2 = W[i - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6], h = state[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/**
 * The last blocks of a message whose first `prefix` bytes (whole blocks) are already in `state`:
 * `bytes[0, length)` then SHA-256's padding (0x80, zeros, the message's length in bits).
 */
function finish(state: Int32Array, bytes: Uint8Array, length: number, prefix: number): void {
  const total = (length + 9 + BLOCK - 1) & ~(BLOCK - 1);
  bytes.fill(0, length, total);
  bytes[length] = 0x80;
  const bits = (prefix + length) * 8;
  // Messages here are far below 2^32 bits: the high word of the length stays zero.
  bytes[total - 4] = bits >>> 24;
  bytes[total - 3] = bits >>> 16;
  bytes[total - 2] = bits >>> 8;
  bytes[total - 1] = bits;
  for (let at = 0; at < total; at += BLOCK) compress(state, bytes, at);
}

const encoder = new TextEncoder();

export class Hmac256 {
  /** The state after K ⊕ ipad, and after K ⊕ opad. */
  private readonly inner = new Int32Array(8);
  private readonly outer = new Int32Array(8);
  private readonly state = new Int32Array(8);
  /** The message (then its padding); grown for a long one. */
  private bytes = new Uint8Array(4 * BLOCK);
  /** The inner digest and the outer padding. */
  private readonly tail = new Uint8Array(BLOCK);

  constructor(key: Uint8Array) {
    // A key longer than a block is hashed first; a shorter one is padded with zeros.
    const k = key.length > BLOCK ? crypto.createHash('sha256').update(key).digest() : key;
    const pad = new Uint8Array(BLOCK);
    for (const [state, byte] of [[this.inner, 0x36], [this.outer, 0x5c]] as const) {
      for (let i = 0; i < BLOCK; i++) pad[i] = (i < k.length ? k[i] : 0) ^ byte;
      state.set(IV);
      compress(state, pad, 0);
    }
  }

  /** The MAC of a message (as UTF-8): the same 32 bytes as `createHmac('sha256', key).update(message).digest()`. */
  digest(message: string): Buffer {
    // Room for the message as UTF-8 (at most 3 bytes per UTF-16 unit) and its padding.
    if (3 * message.length + 2 * BLOCK > this.bytes.length) this.bytes = new Uint8Array(3 * message.length + 2 * BLOCK);
    const { written } = encoder.encodeInto(message, this.bytes);
    const { state, tail } = this;
    state.set(this.inner);
    finish(state, this.bytes, written, BLOCK);
    for (let i = 0; i < 8; i++) {
      const word = state[i];
      tail[4 * i] = word >>> 24;
      tail[4 * i + 1] = word >>> 16;
      tail[4 * i + 2] = word >>> 8;
      tail[4 * i + 3] = word;
    }
    state.set(this.outer);
    finish(state, tail, 32, BLOCK);
    const out = Buffer.allocUnsafe(32);
    for (let i = 0; i < 8; i++) out.writeInt32BE(state[i], 4 * i);
    return out;
  }
}
