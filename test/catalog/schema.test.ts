import t from 'tap';
import { importRecordSchema } from '../../src/catalog/schema.js';

t.test('a minimal track line gets every default', async (t) => {
  const r = importRecordSchema.parse({ type: 'track', track_id: '12', track_name: 'A', artist_id: 3, artist_name: 'B' });
  t.equal(r.type, 'track');
  if (r.type !== 'track') return;
  t.equal(r.track_id, 12);
  t.equal(r.track_isrc, '');
  t.equal(r.explicit, 0);
  t.same(r.primary_genres, { music_genre_list: [] });
});

t.test('a delete names exactly one id', async (t) => {
  t.notOk(importRecordSchema.safeParse({ type: 'delete' }).success);
  t.notOk(importRecordSchema.safeParse({ type: 'delete', track_id: 1, artist_id: 2 }).success);
  t.ok(importRecordSchema.safeParse({ type: 'delete', artist_id: 2 }).success);
});

const track = (fields: Record<string, unknown>) => importRecordSchema.safeParse({ type: 'track', track_id: 1, track_name: 'A', artist_id: 3, artist_name: 'B', ...fields });
const reason = (fields: Record<string, unknown>): string => {
  const r = track(fields);
  return r.success ? 'accepted' : `${r.error.issues[0].path.join('.')}: ${r.error.issues[0].message}`;
};

t.test('flags take 0, 1, true and false, and name what they take otherwise', async (t) => {
  for (const [given, stored] of [[0, 0], [1, 1], [true, 1], [false, 0]] as const) {
    const r = track({ explicit: given, lyrics: { lyrics_body: 'x', verified: given } });
    t.ok(r.success);
    if (r.success && r.data.type === 'track') {
      t.equal(r.data.explicit, stored);
      t.equal(r.data.lyrics?.verified, stored);
    }
  }
  for (const bad of [2, '1', null, 'yes']) t.match(reason({ explicit: bad }), /^explicit: a flag: 0 or 1 \(true or false\)/, `${JSON.stringify(bad)}`);
});

t.test('a language code or empty; a partial date or empty', async (t) => {
  const r = track({ lyrics: { lyrics_body: 'x', lyrics_language: 'PT-br' }, subtitle: { subtitle_body: '[00:01.00] x', subtitle_language: '' }, first_release_date: '' });
  t.ok(r.success);
  if (r.success && r.data.type === 'track') {
    t.equal(r.data.lyrics?.lyrics_language, 'pt-br');
    t.equal(r.data.subtitle?.subtitle_language, '');
    t.equal(r.data.first_release_date, '');
  }
  t.equal(reason({ lyrics: { lyrics_body: 'x', lyrics_language: 'english' } }), 'lyrics.lyrics_language: a language code such as en or pt-BR, or empty');
  t.equal(reason({ first_release_date: '2020-1-1' }), 'first_release_date: YYYY-MM-DD (00 for unknown parts), or empty');
  t.equal(track({ first_release_date: '2020-00-00' }).success, true);
});

t.test('times are stored in UTC to the second; one already so is kept as it is, and a day that does not exist is refused', async (t) => {
  const stored = (updated_time: string) => {
    const r = track({ updated_time });
    return r.success && r.data.type === 'track' ? r.data.updated_time : `refused: ${reason({ updated_time })}`;
  };
  t.equal(stored('2024-02-29T23:59:59Z'), '2024-02-29T23:59:59Z');
  t.equal(stored('0001-01-01T00:00:00Z'), '0001-01-01T00:00:00Z');
  t.equal(stored('2024-02-29T23:59:59.987Z'), '2024-02-29T23:59:59Z');
  t.equal(stored('2024-03-01T01:30:00+02:00'), '2024-02-29T23:30:00Z');
  t.equal(stored('9999-12-31T23:00:00-05:00'), '+010000-01-01T04:00:00Z');
  t.equal(stored('2000-02-29T12:00:00Z'), '2000-02-29T12:00:00Z', 'a leap day of a year divisible by 400');
  t.match(stored('1900-02-29T12:00:00Z'), /^refused: updated_time: /, 'not a leap year: divisible by 100');
  t.match(stored('2024-01-01T23:59:60Z'), /^refused: updated_time: /, 'no leap seconds');
  t.match(stored('2024-01-01t12:00:00z'), /^refused: updated_time: /);
  t.match(stored('2023-02-29T00:00:00Z'), /^refused: updated_time: /);
  t.match(stored('2024-04-31T00:00:00Z'), /^refused: updated_time: /);
  t.match(stored('2024-01-01T24:00:00Z'), /^refused: updated_time: /);
});
