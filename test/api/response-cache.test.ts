/**
 * The response cache (src/api/response-cache.ts) and the catalog's epoch: a change drops every
 * entry (after refreshing the thread's reads), and an answer computed across a change is not kept,
 * even when another request saw the change first.
 */
import t from 'tap';
import { ResponseCache, type CachedReply } from '../../src/api/response-cache.js';
import { CATALOG, Epochs } from '../../src/util/epochs.js';

const reply = (at: number): CachedReply => ({ status: 200, header: {}, headers: {}, body: {}, bodyBytes: Buffer.from('{}'), at });

t.test('an answer computed across a catalog change is not kept, whoever saw the change first', async (t) => {
  const epochs = new Epochs();
  let refreshed = 0;
  const cache = new ResponseCache(100, 60_000, epochs.watch(CATALOG), () => refreshed++);
  cache.set('kept', reply(0), cache.version);
  t.ok(cache.get('kept', 1), 'kept while nothing changed');

  t.notOk(cache.get('a', 1), 'request A misses');
  const version = cache.version; // A starts computing
  epochs.bump(CATALOG); // the catalog changes meanwhile
  t.notOk(cache.get('kept', 2), 'request B sees the change: everything dropped');
  t.equal(refreshed, 1, "the thread's reads were refreshed before B computes");
  cache.set('a', reply(3), version); // A ends with an answer from before the change
  t.notOk(cache.get('a', 4), "A's answer is not kept");
  cache.set('b', reply(5), cache.version);
  t.ok(cache.get('b', 6), 'an answer computed after the change is');
});
