/** The k best of many scored items, deterministic on ties. */
import t from 'tap';
import { TopK } from '../../../src/index/kernel/topk.js';

t.test('TopK keeps the k best, ties broken by the lower tie value', async (t) => {
  const top = new TopK(3);
  for (const [id, score] of [[1, 5], [2, 9], [3, 1], [4, 9], [5, 7], [6, 0]]) top.push(id, score);
  t.same(top.sorted(), [2, 4, 5]);
  t.equal(top.floor, 7);
  const empty = new TopK(0);
  empty.push(1, 1);
  t.same(empty.sorted(), []);
});
