/**
 * artist.related.get through the real server: artists sharing the most genres first, then the more
 * popular; the artist itself and restricted artists left out; paging, 404, bad parameters; the
 * genre index follows later writes and deletes.
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { FIXTURE_RECORDS } from '../helpers/fixtures.js';
import { applyBatch } from '../../src/catalog/write.js';
import { hashOf } from '../../src/catalog/parse.js';
import { artistSchema } from '../../src/catalog/schema.js';

const genre = (id: number, name: string) => ({ music_genre: { music_genre_id: id, music_genre_parent_id: 0, music_genre_name: name } });
const ROCK = genre(21, 'Rock');
const FOLK = genre(22, 'Folk');
const JAZZ = genre(23, 'Jazz');
const artist = (id: number, rating: number, primary: unknown[], secondary: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  type: 'artist', artist_id: id, artist_name: `Artist ${id}`, artist_rating: rating,
  primary_genres: { music_genre_list: primary }, secondary_genres: { music_genre_list: secondary }, ...extra,
});
const ARTISTS = [
  artist(500, 50, [ROCK], [FOLK]), // the one asked about
  artist(501, 10, [ROCK, FOLK]), // both genres, unpopular
  artist(502, 90, [ROCK]), // one genre, popular
  artist(503, 60, [FOLK]),
  artist(504, 99, [JAZZ]), // nothing shared
  artist(505, 95, [ROCK], [FOLK], { restricted: 1 }), // both, but restricted
];

t.test('artist.related.get', async (t) => {
  const s = await startTestServer(t, { records: [...FIXTURE_RECORDS, ...ARTISTS] });
  const apikey = s.keys.free;
  const ids = async (params: Record<string, string | number> = {}) => {
    const r = await s.get('/ws/1.1/artist.related.get', { apikey, artist_id: 500, ...params });
    t.equal(r.status, 200);
    return { ids: r.json.message.body.artist_list.map((a: { artist: { artist_id: number } }) => a.artist.artist_id), available: r.json.message.header.available };
  };
  t.same(await ids(), { ids: [501, 502, 503], available: 3 }, 'most shared genres first, then the more popular; itself, the restricted and the unrelated left out');
  t.same(await ids({ page: 2, page_size: 2 }), { ids: [503], available: 3 });
  const one = await s.get('/ws/1.1/artist.related.get', { apikey, artist_id: 500, page_size: 1 });
  t.match(one.json.message.body.artist_list[0].artist, { artist_id: 501, artist_name: 'Artist 501' }, 'artists as artist.get presents them');

  t.equal((await s.get('/ws/1.1/artist.related.get', { apikey, artist_id: 999999 })).status, 404);
  for (const [name, value] of [['artist_id', 'x'], ['page_size', 101], ['page', 0]] as const) {
    const r = await s.get('/ws/1.1/artist.related.get', { apikey, artist_id: 500, [name]: value });
    t.equal(r.status, 400, `${name}=${value}`);
    t.match(r.json.message.header.hint, new RegExp(`^${name} `));
  }
  t.equal((await s.get('/ws/1.1/artist.related.get', { artist_id: 500 })).status, 401);
  t.ok((await s.get('/ws/1.1/openapi.json')).json.paths['/ws/1.1/artist.related.get'].get, 'in the OpenAPI document');

  // A later write moves 503 to Jazz and deletes 501: the index follows.
  const moved = artist(503, 60, [JAZZ]);
  applyBatch(s.server.catalog, [
    { record: artistSchema.parse(moved), hash: hashOf(JSON.stringify(moved)) },
    { record: { type: 'delete', artist_id: 501 } as never, hash: '' },
  ]);
  s.server.catalog.refresh();
  t.same((await ids({ page_size: 10, page: 1, f: 'fresh' })).ids, [502]);
});
