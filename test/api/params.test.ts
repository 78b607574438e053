import t from 'tap';
import { boolParam, codeParam, countryParam, idParam, intParam, paramHint, parseQuery, sortParam, yyyymmddParam } from '../../src/api/params.js';
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

t.test('ids padded with hidden characters are refused, naming the character (issue 11, item 12)', async (t) => {
  const cases: [string, string][] = [
    ['\uFEFF1', 'U+FEFF (a byte-order mark)'],
    ['1\n', 'U+000A (a line feed)'],
    ['1\r\n', 'U+000D (a carriage return)'],
    ['\t1', 'U+0009 (a tab)'],
    ['1\u0000', 'U+0000 (NUL)'],
    ['\u200B1', 'U+200B (a zero-width space)'],
    ['1\u00A0', 'U+00A0 (a no-break space)'],
    ['1\u2028', 'U+2028 (an invisible or control character)'],
  ];
  const schema = z.object({ track_id: idParam, page: intParam(1, 100), track_spotify_id: codeParam.optional() });
  for (const [value, named] of cases) {
    const id = schema.safeParse({ track_id: value, page: '1' });
    t.equal(paramHint(id.error!), `track_id must be a positive integer id: it holds ${named}; send it without hidden characters`, encodeURIComponent(value));
    const page = schema.safeParse({ track_id: '1', page: value });
    t.equal(paramHint(page.error!), `page must be an integer from 1 to 100: it holds ${named}; send it without hidden characters`);
    const code = schema.safeParse({ track_id: '1', page: '1', track_spotify_id: `3n3Ppam7vgaVa1iaRUc9Lp${value}` });
    t.match(paramHint(code.error!), new RegExp(`^track_spotify_id must be an id as the service gives it: it holds ${named.replace(/[()+]/g, '\\$&')}`));
  }
  for (const value of ['\u20001', '1\u3000', '1\u000B']) t.notOk(idParam.safeParse(value).success, encodeURIComponent(value));
  t.equal(idParam.parse(' 1 '), 1, 'ASCII spaces around an id are still tolerated');
  t.equal(intParam(1, 100).parse(' 7'), 7);
  t.equal(codeParam.parse('3n3Ppam7vgaVa1iaRUc9Lp'), '3n3Ppam7vgaVa1iaRUc9Lp');
});
