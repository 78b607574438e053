/**
 * Puts that go to the end of a database as appends (LMDB's MDB_APPEND). A key above every key the
 * database holds is written without searching the tree, and the page it fills is split at its end
 * instead of its middle: a catalog imported in key order (ids ascending, as the generator and most
 * exports write them) gets full B-tree pages instead of pages a third to a half empty, and its
 * import does less work. Any other key is an ordinary put, so the order of an import never
 * changes what is stored, only how compactly.
 *
 * One Appender per write transaction: each database's last key is read once, when the
 * transaction first writes to it (no other writer can add keys while it holds the write lock),
 * then followed as keys are appended. A key removed in the transaction leaves the followed key
 * above the real last one, which only makes appends rarer; a key put past it by other code is
 * caught by LMDB, which refuses such an append, and the put is made the ordinary way.
 */
import type { Database, Key, PutOptions } from 'lmdb';

const APPEND = { append: true } as const;

export class Appender {
  private readonly last = new Map<Database<unknown, Key>, Key | undefined>();

  put<V, K extends Key>(db: Database<V, K>, key: K, value: V): void {
    const store = db as unknown as Database<unknown, Key>;
    const last = this.lastOf(store);
    if (last === undefined || isAbove(key, last)) {
      if (put(db, key, value, APPEND)) {
        this.last.set(store, key);
        return;
      }
      // LMDB refuses an append below its last key, writing nothing: some other put of this
      // transaction went past the followed key (msgpackr's shared structures sit at the top of a
      // format-1 catalog, store.ts). Read the last key again, and put.
      this.last.set(store, lastKey(store));
    }
    if (!put(db, key, value)) throw new Error(`could not write key ${JSON.stringify(key)}`);
  }

  /**
   * Whether `key`, an array key, would open a group of its own at the end of the database: its
   * first component above that of every key the database holds, so no other key shares it.
   * Sure only for a database whose puts in this transaction, since this Appender first read its
   * last key, all went through it (the followed key is then the last one or above it, and above
   * only makes the answer false).
   */
  opensGroup(db: Database<unknown, Key>, key: readonly number[]): boolean {
    const last = this.lastOf(db);
    return last === undefined || (Array.isArray(last) && typeof last[0] === 'number' && key[0] > last[0]);
  }

  private lastOf(db: Database<unknown, Key>): Key | undefined {
    if (this.last.has(db)) return this.last.get(db);
    const last = lastKey(db);
    this.last.set(db, last);
    return last;
  }
}

/** lmdb-js's putSync returns whether it wrote (its type declarations say void). */
function put<V, K extends Key>(db: Database<V, K>, key: K, value: V, options: PutOptions = {}): boolean {
  return db.putSync(key, value, options) as unknown as boolean;
}

function lastKey(db: Database<unknown, Key>): Key | undefined {
  for (const key of db.getKeys({ reverse: true, limit: 1 })) return key;
  return undefined;
}

/**
 * Whether `key` sorts after `last` in the database, known for the keys whose order is plain to
 * compare here: numbers, and arrays of numbers element by element (the order both of LMDB's
 * integer keys and of the ordered-binary encoding). Any other key (strings sort by their UTF-8
 * bytes) answers false, and is written with an ordinary put.
 */
export function isAbove(key: Key, last: Key): boolean {
  if (typeof key === 'number' && typeof last === 'number') return key > last;
  if (!Array.isArray(key) || !Array.isArray(last)) return false;
  for (let i = 0; i < key.length; i++) {
    if (i === last.length) return true;
    const a: unknown = key[i];
    const b: unknown = last[i];
    if (typeof a !== 'number' || typeof b !== 'number') return false;
    if (a !== b) return a > b;
  }
  return false;
}
