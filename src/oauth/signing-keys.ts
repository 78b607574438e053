/**
 * The RS256 key pairs tokens are signed with, in `<data>/oauth/signing-keys.json` (mode 0600):
 * private JWKs, oldest first, the last one signing. The JWKS serves the public parts of all of
 * them, so tokens signed before a rotation verify until they expire. `kid` is the RFC 7638
 * thumbprint of the public key.
 *
 * The file is replaced atomically (write a temporary file, then rename), so a server reading it
 * while `refrain oauth-keys rotate` runs sees the old or the new set, never half a file.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { isoSeconds } from '../util/date.js';

interface StoredKey {
  kid: string;
  created: string;
  /** Private JWK (RSA 2048, alg RS256). */
  jwk: JWK;
}

interface KeyFile {
  keys: StoredKey[];
}

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

const PRIVATE_FIELDS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'] as const;

const fileOf = (dataDir: string): string => path.join(dataDir, 'oauth', 'signing-keys.json');

const publicJwkOf = (jwk: JWK): JWK => {
  const pub: JWK = { ...jwk };
  for (const f of PRIVATE_FIELDS) delete pub[f];
  delete pub.key_ops;
  delete pub.ext;
  return pub;
};

async function newKey(): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwkOf(jwk));
  return { kid, created: isoSeconds(Date.now()), jwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
}

/** Write the file atomically with mode 0600; `exclusive`: fail with EEXIST if it already exists. */
function writeKeyFile(file: string, content: KeyFile, exclusive: boolean): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  try {
    if (exclusive) linkSync(tmp, file);
    else renameSync(tmp, file);
  } finally {
    if (exclusive) unlinkSync(tmp);
  }
}

function readKeyFile(file: string): KeyFile {
  const content = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
  if (!Array.isArray(content.keys) || content.keys.length === 0) throw new Error(`${file} holds no signing keys`);
  return content;
}

const isMissing = (e: unknown): boolean => (e as NodeJS.ErrnoException).code === 'ENOENT';
const isTaken = (e: unknown): boolean => (e as NodeJS.ErrnoException).code === 'EEXIST';

/** Read the key file, creating it with one new key when there is none (another process may race us). */
async function loadOrCreate(file: string): Promise<KeyFile> {
  try {
    return readKeyFile(file);
  } catch (e) {
    if (!isMissing(e)) throw e;
  }
  const content = { keys: [await newKey()] };
  try {
    writeKeyFile(file, content, true);
    return content;
  } catch (e) {
    if (isTaken(e)) return readKeyFile(file);
    throw e;
  }
}

async function load(stored: StoredKey): Promise<LoadedKey> {
  const publicJwk = { ...publicJwkOf(stored.jwk), kid: stored.kid, alg: 'RS256', use: 'sig' };
  return {
    kid: stored.kid,
    privateKey: (await importJWK(stored.jwk, 'RS256')) as CryptoKey,
    publicKey: (await importJWK(publicJwk, 'RS256')) as CryptoKey,
    publicJwk,
  };
}

const stamp = (file: string): string => {
  const s = statSync(file);
  return `${s.mtimeMs}:${s.size}:${s.ino}`;
};

export class SigningKeys {
  private keys: LoadedKey[];
  private byKid: Map<string, LoadedKey>;
  private seen: string;

  private constructor(
    private readonly file: string,
    keys: LoadedKey[],
    seen: string,
  ) {
    this.keys = keys;
    this.byKid = new Map(keys.map((k) => [k.kid, k]));
    this.seen = seen;
  }

  /** The keys of a data directory; creates the file with one RSA 2048 key on first use. */
  static async open(dataDir: string): Promise<SigningKeys> {
    const file = fileOf(dataDir);
    const content = await loadOrCreate(file);
    return new SigningKeys(file, await Promise.all(content.keys.map(load)), stamp(file));
  }

  /**
   * Add a new key that signs from now on. `retire` drops the keys older than the previous one
   * (tokens they signed stop verifying). Returns the new kid and the kids kept, oldest first.
   */
  static async rotate(dataDir: string, options: { retire?: boolean } = {}): Promise<{ kid: string; kids: string[] }> {
    const file = fileOf(dataDir);
    const content = await loadOrCreate(file);
    const added = await newKey();
    const keys = [...(options.retire ? content.keys.slice(-1) : content.keys), added];
    writeKeyFile(file, { keys }, false);
    return { kid: added.kid, kids: keys.map((k) => k.kid) };
  }

  /** The key new tokens are signed with. */
  get current(): { kid: string; privateKey: CryptoKey } {
    const { kid, privateKey } = this.keys[this.keys.length - 1];
    return { kid, privateKey };
  }

  /** The JWKS document: public parts of every kept key, with kid, alg RS256 and use sig. */
  jwks(): { keys: JWK[] } {
    return { keys: this.keys.map((k) => ({ ...k.publicJwk })) };
  }

  publicKey(kid: string): CryptoKey | undefined {
    return this.byKid.get(kid)?.publicKey;
  }

  /**
   * Re-read the file if it changed since it was read (a rotation by the CLI or another server):
   * one stat when nothing changed. Returns whether the key set changed.
   */
  async reload(): Promise<boolean> {
    let now: string;
    try {
      now = stamp(this.file);
    } catch {
      return false;
    }
    if (now === this.seen) return false;
    const keys = await Promise.all(readKeyFile(this.file).keys.map(load));
    this.keys = keys;
    this.byKid = new Map(keys.map((k) => [k.kid, k]));
    this.seen = now;
    return true;
  }
}
