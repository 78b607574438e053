/**
 * music.genres.get through the real server: the genres the catalog's records name, their fields as
 * the public API spells them, genres added by later writes, and catalogs written before the genre
 * table existed.
 */
import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { FIXTURE_RECORDS } from '../helpers/fixtures.js';
import { Catalog } from '../../src/catalog/store.js';
import { applyBatch } from '../../src/catalog/write.js';
import { hashOf } from '../../src/catalog/parse.js';
import { albumSchema } from '../../src/catalog/schema.js';

const INDIE = { music_genre: { music_genre_id: 1020, music_genre_parent_id: 14, music_genre_name: 'Indie Pop', music_genre_name_extended: 'Pop / Indie Pop', music_genre_vanity: 'Pop-Indie-Pop' } };
const ALBUM = { type: 'album', album_id: 2000, album_name: 'Indie Album', artist_id: 100, primary_genres: { music_genre_list: [INDIE] } };

t.test('music.genres.get lists the genres of the catalog', async (t) => {
  const s = await startTestServer(t, { records: [...FIXTURE_RECORDS, ALBUM] });
  const r = await s.get('/ws/1.1/music.genres.get', { apikey: s.keys.free });
  t.equal(r.status, 200);
  t.same(r.json.message.body, {
    music_genre_list: [
      { music_genre: { music_genre_id: 14, music_genre_parent_id: 34, music_genre_name: 'Pop', music_genre_name_extended: 'Pop', music_genre_vanity: 'Pop' } },
      INDIE,
    ],
  });
  const xml = await s.get('/ws/1.1/music.genres.get', { apikey: s.keys.free, format: 'xml' });
  t.match(xml.text, /<music_genre_list><music_genre><music_genre_id>14<\/music_genre_id>/);
  t.equal((await s.get('/ws/1.1/music.genres.get', { apikey: s.keys.free, page_size: 'whatever' })).status, 200, 'unknown parameters are ignored');
  t.equal((await s.get('/ws/1.1/music.genres.get')).status, 401, 'a key is needed');
  t.equal((await s.get('/ws/1.1/music.genres.get', { apikey: s.keys.free }, { method: 'POST' })).status, 405);
  const openapi = (await s.get('/ws/1.1/openapi.json')).json;
  t.ok(openapi.paths['/ws/1.1/music.genres.get'].get, 'in the OpenAPI document');
});

t.test('a genre renamed by a later write is listed with its new name; an old catalog gathers its genres on open', async (t) => {
  const s = await startTestServer(t, { records: FIXTURE_RECORDS });
  const renamed = { ...ALBUM, primary_genres: { music_genre_list: [{ music_genre: { ...INDIE.music_genre, music_genre_name: 'Indie' } }] } };
  applyBatch(s.server.catalog, [{ record: albumSchema.parse(renamed), hash: hashOf(JSON.stringify(renamed)) }]);
  s.server.catalog.refresh();
  const names = (await s.get('/ws/1.1/music.genres.get', { apikey: s.keys.free })).json.message.body.music_genre_list.map((g: { music_genre: { music_genre_name: string } }) => g.music_genre.music_genre_name);
  t.same(names, ['Pop', 'Indie']);
  await s.server.close();

  // A catalog from before the genre table: no table, no flag.
  const old = Catalog.open(s.data);
  await old.root.transaction(() => {
    old.root.openDB({ name: 'genres', keyEncoding: 'uint32' }).clearSync();
    old.meta.removeSync('catalog:genres:2');
  });
  t.same(old.genres(), []);
  await old.close();
  const reopened = Catalog.open(s.data);
  t.same(reopened.genres().map((g) => g.music_genre_name), ['Pop', 'Indie'], 'gathered from the stored records');
  await reopened.close();
});
