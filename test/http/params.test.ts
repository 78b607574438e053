import t from 'tap';
import { boolParam, countryParam, idParam, paramHint, parseQuery, sortParam, yyyymmddParam } from '../../src/http/params.js';
import { z } from 'zod';

t.test('parseQuery drops empty values and keeps the first of repeats', async (t) => {
  t.same(parseQuery('a=1&b=&a=2&c=x%20y&d=x+y'), { a: '1', c: 'x y', d: 'x y' });
  t.same(parseQuery(''), {});
});

t.test('parameter schemas accept what real clients send', async (t) => {
  t.equal(idParam.parse('0042'), 42);
  t.notOk(idParam.safeParse('0').success);
  t.notOk(idParam.safeParse('99999999999').success);
  for (const [v, want] of [['1', true], ['True', true], ['FALSE', false], ['0', false]] as const) t.equal(boolParam.parse(v), want);
  t.notOk(boolParam.safeParse('yes').success);
  t.equal(sortParam.parse('DESC'), 'desc');
  t.equal(countryParam.parse('gb'), 'GB');
  t.equal(countryParam.parse('xw'), 'XW');
  t.notOk(countryParam.safeParse('ZZ').success);
  t.equal(yyyymmddParam.parse('20200131'), '2020-01-31');
});

t.test('paramHint names the parameter', async (t) => {
  const schema = z.object({ artist_id: idParam });
  t.equal(paramHint(schema.safeParse({}).error!), 'artist_id is required');
  t.equal(paramHint(schema.safeParse({ artist_id: 'x' }).error!, { artist_id: 'x' }), 'artist_id must be a positive integer id');
});
