/**
 * Asks (src/util/asks.ts): each answer settles the question with its id; a failed send rejects at
 * once and leaves nothing waiting; the busy callback brackets the time questions wait.
 */
import t from 'tap';
import { Asks } from '../../src/util/asks.js';

t.test('answers reach their questions, in any order; busy brackets the waiting', async (t) => {
  const busy: boolean[] = [];
  const sent: number[] = [];
  const asks = new Asks((b) => busy.push(b));
  const a = asks.ask<string>((id) => sent.push(id));
  const b = asks.ask<string>((id) => sent.push(id));
  t.same(busy, [true], 'busy once, with the first question');
  asks.answer(sent[1], 'second');
  asks.fail(sent[0], new Error('first failed'));
  t.equal(await b, 'second');
  await t.rejects(a, /first failed/);
  t.same(busy, [true, false], 'idle once the last is settled');
  asks.answer(sent[0], 'late');
  t.same(busy, [true, false], 'an answer to a settled question is ignored');
});

t.test('a question that cannot be sent rejects at once and leaves nothing waiting', async (t) => {
  const busy: boolean[] = [];
  const asks = new Asks((b) => busy.push(b));
  await t.rejects(
    asks.ask(() => {
      throw new Error('cannot clone');
    }),
    /cannot clone/,
  );
  t.same(busy, [true, false]);
});
