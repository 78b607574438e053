/**
 * Key invalidation across threads (src/util/epochs.ts): a guard on another thread caches a key it
 * admitted; once the owner sees the key revoked and bumps the KEYS epoch, that guard refuses the key
 * on its very next request.
 */
import t from 'tap';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { Catalog } from '../../src/catalog/store.js';
import { KeyStore } from '../../src/auth/keys.js';
import { Epochs, KEYS } from '../../src/util/epochs.js';
import { tempDir } from '../helpers/tmp.js';

const GUARD = new URL('../fixtures/guard-thread.ts', import.meta.url);

t.test('a key revoked on the owning thread is refused by a guard on another thread as soon as the epoch moves', async (t) => {
  const dir = tempDir(t);
  const catalog = Catalog.open(dir);
  t.teardown(() => catalog.close());
  const keys = new KeyStore(catalog.root);
  const { key, record } = keys.create({ plan: 'basic' });
  const epochs = new Epochs();
  // A poll too slow to fire during the test: only check() looks.
  const poll = epochs.poll(KEYS, () => {
    catalog.refresh();
    return keys.version();
  }, 3_600_000);
  t.teardown(() => poll.close());

  const worker = new Worker(GUARD, { workerData: { dataDir: dir, epochs: epochs.buffer } });
  t.teardown(() => worker.terminate());
  const ask = async (apikey: string) => {
    worker.postMessage(apikey);
    return (await once(worker, 'message'))[0] as string;
  };
  t.equal(await ask(key), 'ok', 'admitted, and now cached on that thread');
  keys.revoke(record.key_id);
  t.equal(await ask(key), 'ok', 'until the owner looks, the cached key still passes');
  poll.check();
  t.equal(await ask(key), 'unauthorized', 'refused on the next request once the epoch moved');
  worker.postMessage(null);
});
