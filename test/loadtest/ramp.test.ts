/** The ramp's search: up by half while steps pass, then halving the gap between the last pass and the first failure. */
import t from 'tap';
import { judge, rampSearch, type StepResult } from '../../src/loadtest/ramp.js';

/** A target that holds p99 at 5 ms up to `capacity` requests/s and misses it beyond. */
const model = (capacity: number) => async (rate: number): Promise<StepResult> =>
  judge(rate, { sentPerSecond: rate, p50: 1, p99: rate <= capacity ? 5 : 80, failedShare: 0 }, 20);

t.test('finds the capacity within the last bracket', async (t) => {
  const r = await rampSearch({ from: 50, max: 100_000, sloMs: 20 }, model(730));
  const rates = r.steps.map((s) => s.rate);
  t.same(rates.slice(0, 8), [50, 75, 113, 170, 255, 383, 575, 863], 'up by half while passing');
  t.same(rates.slice(8), [719, 791, 755], 'then bisects 575..863 three times');
  t.equal(r.capacity, 719);
  t.equal(r.open, false);
  t.ok(r.capacity! <= 730 && r.capacity! >= 730 * 0.9, 'within 10% of the true capacity');
});

t.test('never passes --rate, and says when the ceiling held', async (t) => {
  const r = await rampSearch({ from: 50, max: 300, sloMs: 20 }, model(10_000));
  t.ok(r.steps.every((s) => s.rate <= 300));
  t.equal(r.steps.at(-1)!.rate, 300);
  t.equal(r.capacity, 300);
  t.equal(r.open, true, 'a lower bound: nothing failed');
});

t.test('a first step that fails backs off below it; time running out stops the search', async (t) => {
  const low = await rampSearch({ from: 50, max: 1000, sloMs: 20 }, model(10));
  t.same(low.steps.map((s) => s.rate), [50, 25, 13, 7], 'halving towards 0');
  t.equal(low.capacity, 7);
  const none = await rampSearch({ from: 50, max: 1000, sloMs: 20 }, model(0));
  t.equal(none.capacity, undefined, 'nothing held');
  let budget = 3;
  const short = await rampSearch({ from: 50, max: 100_000, sloMs: 20, mayContinue: () => budget-- > 0 }, model(10_000));
  t.equal(short.steps.length, 3);
  t.equal(short.capacity, 113);
  t.equal(short.open, true);
});

t.test('judge: the objective, failures and a load generator that could not keep up', async (t) => {
  t.equal(judge(100, { sentPerSecond: 100, p50: 1, p99: 19.9, failedShare: 0.01 }, 20).pass, true);
  t.match(judge(100, { sentPerSecond: 100, p50: 1, p99: 20.1, failedShare: 0 }, 20), { pass: false, reason: 'p99 20.1 ms > 20 ms' });
  t.match(judge(100, { sentPerSecond: 100, p50: 1, p99: 2, failedShare: 0.02 }, 20), { pass: false, reason: '2.0% failed' });
  t.match(judge(100, { sentPerSecond: 90, p50: 1, p99: 2, failedShare: 0 }, 20), { pass: false, reason: /load generator sent 90\/s of 100\/s/ });
});
