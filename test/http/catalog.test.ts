import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { Album, Artist } from '../../src/api/resources.js';

t.test('artist, album and chart methods', async (t) => {
  const s = await startTestServer(t);
  const apikey = s.keys.basic;
  const body = async (method: string, params: Record<string, string | number>) => (await s.get(`/ws/1.1/${method}`, { ...params, apikey })).json.message;

  t.test('artist.get', async (t) => {
    const { artist } = (await body('artist.get', { artist_id: 100 })).body;
    t.ok(Artist.safeParse(artist).success, JSON.stringify(Artist.safeParse(artist).error?.issues?.[0]));
    t.equal(artist.artist_name, 'The Fixtures');
    t.same(artist.artist_alias_list, [{ artist_alias: 'Fixtures' }]);
    t.equal(artist.begin_date, '1990-05-00');
    t.equal(artist.begin_date_year, '1990');
    t.equal(artist.end_date, '0000-00-00');
    t.equal(artist.end_date_year, '');
    t.equal((await s.get('/ws/1.1/artist.get', { artist_id: 5, apikey })).status, 404);
    const missing = await s.get('/ws/1.1/artist.get', { apikey });
    t.equal(missing.status, 400);
    t.equal(missing.json.message.header.hint, 'artist_id is required');
  });

  t.test('album.get and album.tracks.get', async (t) => {
    const { album } = (await body('album.get', { album_id: 1000 })).body;
    t.ok(Album.safeParse(album).success);
    t.equal(album.album_track_count, 4);
    t.equal(album.artist_name, 'The Fixtures');
    const tracks = await body('album.tracks.get', { album_id: 1000 });
    t.equal(tracks.header.available, 4);
    t.same(tracks.body.track_list.map((x: { track: { track_id: number } }) => x.track.track_id), [1, 3, 4, 5]);
    const withLyrics = await body('album.tracks.get', { album_id: 1000, f_has_lyrics: 1, page_size: 2, page: 2 });
    t.equal(withLyrics.header.available, 3);
    t.same(withLyrics.body.track_list.map((x: { track: { track_id: number } }) => x.track.track_id), [4]);
    t.equal((await s.get('/ws/1.1/album.tracks.get', { album_id: 4242, apikey })).status, 404);
  });

  t.test('artist.albums.get: sort, group, paging', async (t) => {
    const ids = (m: { body: { album_list: { album: { album_id: number } }[] } }) => m.body.album_list.map((x) => x.album.album_id);
    t.same(ids(await body('artist.albums.get', { artist_id: 100, s_release_date: 'desc' })), [1000, 1001]);
    t.same(ids(await body('artist.albums.get', { artist_id: 100, s_release_date: 'asc' })), [1001, 1000]);
    const paged = await body('artist.albums.get', { artist_id: 100, s_release_date: 'asc', page_size: 1, page: 2 });
    t.equal(paged.header.available, 2);
    t.same(ids(paged), [1000]);
    t.same(ids(await body('artist.albums.get', { artist_id: 100, g_album_name: 1 })).length, 2);
    t.equal((await s.get('/ws/1.1/artist.albums.get', { artist_id: 77, apikey })).status, 404);
  });

  t.test('chart.tracks.get honours region restrictions', async (t) => {
    const ids = (m: { body: { track_list: { track: { track_id: number } }[] } }) => m.body.track_list.map((x) => x.track.track_id);
    t.same(ids(await body('chart.tracks.get', {})), [1, 3, 2, 5], 'no country: worldwide-blocked and allow-listed tracks left out');
    t.same(ids(await body('chart.tracks.get', { country: 'it' })), [6, 1, 2, 5], 'Italy: its own track in, the blocked one out');
    t.same(ids(await body('chart.tracks.get', { country: 'US', f_has_lyrics: 1, page_size: 2 })), [1, 3]);
    t.same(ids(await body('chart.tracks.get', { country: 'US', f_has_lyrics: 1, page_size: 2, page: 2 })), [2]);
    const bad = await s.get('/ws/1.1/chart.tracks.get', { country: 'QQ', apikey });
    t.equal(bad.status, 400);
    t.match(bad.json.message.header.hint, /^country must be an ISO 3166-1/);
    t.equal((await s.get('/ws/1.1/chart.tracks.get', { chart_name: 'weekly', apikey })).status, 400);
    t.same(ids(await body('chart.tracks.get', { chart_name: 'hot' })), [], 'hot: nothing in the fixtures was released in the last year');
  });

  t.test('chart.artists.get honours region restrictions', async (t) => {
    const ids = (m: { body: { artist_list: { artist: { artist_id: number } }[] } }) => m.body.artist_list.map((x) => x.artist.artist_id);
    t.same(ids(await body('chart.artists.get', {})), [100], 'Only Italy has nothing available without a country');
    t.same(ids(await body('chart.artists.get', { country: 'IT' })), [200, 100]);
  });
});
