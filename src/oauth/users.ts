/**
 * End users of the authorization code flow (artists, rights holders), created by the operator with
 * `refrain users create`. Passwords are hashed with scrypt (memory-hard: N = 2^15, r = 8, p = 1,
 * 32 MiB and ~50-100 ms per guess), stored as `scrypt$N$r$p$salt$hash` so the cost can be raised
 * later without invalidating old hashes.
 *
 * One LMDB database, `oauth-users`: `u_…` → the user, `email:<address>` → its user id.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import { RefrainError } from '../errors.js';
import { isoSeconds } from '../util/date.js';

export interface UserRecord {
  user_id: string;
  email: string;
  name: string;
  created: string;
  disabled: string | null;
}

interface StoredUser extends UserRecord {
  password_hash: string;
}

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 1024;

const SCRYPT = { N: 2 ** 15, r: 8, p: 1 };
/** 128·N·r = 32 MiB for the parameters above; Node's default limit (32 MiB) is just too small. */
const MAX_MEM = 64 * 2 ** 20;
const KEY_LENGTH = 32;

/** A hash with the current parameters that no password matches: checked against for unknown e-mails. */
const DUMMY_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

const USERS_VERSION = 'oauth-users:version';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const derive = (password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keylen, { ...options, maxmem: MAX_MEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** An scrypt hash of a password in the stored format. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, KEY_LENGTH, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Whether a password matches a stored hash (constant time in the comparison). */
export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

/** The stored form of an e-mail address: trimmed, lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Why a new user is refused (bad e-mail, short password), or undefined. */
export function userSpecProblem(spec: { email: string; name: string; password: string }): string | undefined {
  const email = normalizeEmail(spec.email);
  if (!EMAIL.test(email) || email.length > 254) return `${spec.email} is not an e-mail address`;
  if (!spec.name.trim() || spec.name.length > 200) return 'the name must have 1 to 200 characters';
  const length = [...spec.password].length;
  if (length < MIN_PASSWORD_LENGTH) return `the password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `the password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}

const publicPart = ({ password_hash: _, ...record }: StoredUser): UserRecord => record;
const emailKey = (email: string): string => `email:${normalizeEmail(email)}`;

export class UserStore {
  private readonly db: Database<StoredUser | string, string>;
  private readonly meta: Database<unknown, string>;

  constructor(root: RootDatabase) {
    this.db = root.openDB<StoredUser | string, string>({ name: 'oauth-users' });
    this.meta = root.openDB<unknown, string>({ name: 'meta' });
  }

  /** Create a user. RefrainError('bad_request') for a bad e-mail, a short password or an e-mail already taken. */
  async create(spec: { email: string; name: string; password: string }): Promise<UserRecord> {
    const problem = userSpecProblem(spec);
    if (problem) throw new RefrainError('bad_request', problem);
    const email = normalizeEmail(spec.email);
    const taken = () => new RefrainError('bad_request', `a user with e-mail ${email} already exists`);
    if (this.db.get(emailKey(email)) !== undefined) throw taken();
    const password_hash = await hashPassword(spec.password);
    const record: UserRecord = {
      user_id: `u_${randomBytes(8).toString('hex')}`,
      email,
      name: spec.name.trim(),
      created: isoSeconds(Date.now()),
      disabled: null,
    };
    const created = this.db.transactionSync(() => {
      // Checked again inside the write transaction: another process may have taken it while we hashed.
      if (this.db.get(emailKey(email)) !== undefined) return false;
      this.db.putSync(record.user_id, { ...record, password_hash });
      this.db.putSync(emailKey(email), record.user_id);
      this.bumpVersion();
      return true;
    });
    if (!created) throw taken();
    return record;
  }

  /** Every user, oldest first, without password hashes. */
  list(): UserRecord[] {
    return [...this.db.getRange({ start: 'u_', end: 'u`' })]
      .map((e) => publicPart(e.value as StoredUser))
      .sort((a, b) => a.created.localeCompare(b.created) || a.email.localeCompare(b.email)); // oldest first; within a second, by e-mail
  }

  /** Disable a user by id or e-mail: their tokens stop verifying and they cannot log in. RefrainError('not_found') when unknown. */
  disable(idOrEmail: string): UserRecord {
    return this.db.transactionSync(() => {
      const stored = this.stored(idOrEmail.includes('@') ? this.idOf(idOrEmail) : idOrEmail);
      if (!stored) throw new RefrainError('not_found', `no user with id or e-mail ${idOrEmail}`);
      const disabled = { ...stored, disabled: stored.disabled ?? isoSeconds(Date.now()) };
      this.db.putSync(stored.user_id, disabled);
      this.bumpVersion();
      return publicPart(disabled);
    });
  }

  /** A user, enabled or disabled (check `.disabled`). */
  get(userId: string): UserRecord | undefined {
    const stored = this.stored(userId);
    return stored && publicPart(stored);
  }

  /**
   * The enabled user with this e-mail and password, or undefined. An unknown e-mail still runs
   * one scrypt (against a hash nothing matches), so the answer time does not tell which e-mails exist.
   */
  async verifyPassword(email: string, password: string): Promise<UserRecord | undefined> {
    const stored = this.stored(this.idOf(email));
    if (password.length > MAX_PASSWORD_LENGTH * 4) return undefined; // never hash megabytes
    const ok = await checkPassword(password, stored?.password_hash ?? DUMMY_HASH);
    return ok && stored && !stored.disabled ? publicPart(stored) : undefined;
  }

  /** A counter bumped on every change, for caches in other processes. */
  version(): number {
    return (this.meta.get(USERS_VERSION) as number | undefined) ?? 0;
  }

  private stored(userId: string | undefined): StoredUser | undefined {
    if (!userId?.startsWith('u_')) return undefined;
    const value = this.db.get(userId);
    return typeof value === 'object' ? value : undefined;
  }

  private idOf(email: string): string | undefined {
    const id = this.db.get(emailKey(email));
    return typeof id === 'string' ? id : undefined;
  }

  private bumpVersion(): void {
    this.meta.putSync(USERS_VERSION, this.version() + 1);
  }
}
