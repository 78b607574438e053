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
