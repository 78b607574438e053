/** A pass-through stream that counts and SHA-256-hashes the bytes flowing through it (feed files). */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

export interface Measuring {
  stream: Transform;
  /** Bytes seen so far. */
  bytes(): number;
  /** Hex SHA-256 of every byte seen; call once, after the stream ended. */
  sha256(): string;
}

export function measuringStream(): Measuring {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, bytes: () => bytes, sha256: () => hash.digest('hex') };
}
