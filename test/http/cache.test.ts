import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { importFiles } from '../../src/catalog/import.js';
import { writeJsonl } from '../helpers/tmp.js';
import { TRACKS } from '../helpers/fixtures.js';

t.test('cached answers: per caller, and dropped when the catalog changes', async (t) => {
  const s = await startTestServer(t);
  const apikey = s.keys.enterprise;
  const first = await s.get('/ws/1.1/track.get', { track_id: 1, apikey });
  const again = await s.get('/ws/1.1/track.get', { track_id: 1, apikey, format: 'xml' });
  t.match(again.text, /<track_name>Full Song<\/track_name>/, 'a cached answer in another format');
  t.not(first.json.message.header.execute_time, undefined);

  const a = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey })).json.message.body.lyrics;
  const b = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey: s.keys.basic })).json.message.body.lyrics;
  t.not(a.pixel_tracking_url, b.pixel_tracking_url, 'tracking URLs are per key, never shared through the cache');
  const free = (await s.get('/ws/1.1/track.lyrics.get', { track_id: 1, apikey: s.keys.free })).json.message.body.lyrics;
  t.match(free.lyrics_copyright, /only 30%/, 'the free plan never gets a full answer cached for others');

  t.equal((await s.get('/ws/1.1/track.get', { track_id: 77, apikey })).status, 404);
  const file = writeJsonl(s.data, 'more.jsonl', [{ ...TRACKS[0], track_id: 77, track_name: 'New Song', commontrack_id: 77, track_isrc: 'GBAAA2000077' }, { ...TRACKS[0], track_name: 'Renamed' }]);
  const report = await importFiles(s.server.catalog, [file]);
  t.equal(report.imported + report.updated, 2);
  s.server.refreshCatalog();
  const added = await s.get('/ws/1.1/track.get', { track_id: 77, apikey });
  t.equal(added.status, 200, 'a cached 404 is dropped when the catalog changes');
  t.equal((await s.get('/ws/1.1/track.get', { track_id: 1, apikey })).json.message.body.track.track_name, 'Renamed');
});

t.test('--response-cache 0 turns the cache off', async (t) => {
  const s = await startTestServer(t, { flags: ['--response-cache', '0'] });
  const get = async () => (await s.get('/ws/1.1/track.get', { track_id: 1, apikey: s.keys.basic })).json.message.body.track.track_name;
  t.equal(await get(), 'Full Song');
  // A write that bypasses the change log: a cache (dropped only when the log moves) would keep
  // answering 'Full Song'; without one, every request reads the store.
  const catalog = s.server.catalog;
  await catalog.tracks.put(1, { ...catalog.getTrack(1)!, track_name: 'Behind the Cache' });
  s.server.refreshCatalog();
  t.equal(await get(), 'Behind the Cache', 'the second request was answered from the store, not from a cache');
});
