/** track.search, artist.search and the matchers through the real server, on a small catalog made for them. */
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SEARCH_RECORDS } from '../helpers/search-fixtures.js';


let api: TestServer;
t.before(async () => {
  api = await startTestServer(t, { records: SEARCH_RECORDS });
});

const ids = (body: { track_list?: { track: { track_id: number } }[]; artist_list?: { artist: { artist_id: number } }[] }) =>
  body.track_list ? body.track_list.map((x) => x.track.track_id) : (body.artist_list ?? []).map((x) => x.artist.artist_id);

async function search(params: Record<string, string | number>, method = 'track.search', key = api.keys.basic) {
  const r = await api.get(`/ws/1.1/${method}`, { apikey: key, ...params });
  return { status: r.status, header: r.json?.message.header, ids: r.status === 200 ? ids(r.json.message.body) : [], r };
}

t.test('track.search: each word parameter searches its fields', async (t) => {
  const cases: [Record<string, string>, number[]][] = [
    [{ q_track: 'yellow submarine' }, [1001, 1002]],
    [{ q_track: 'YELLOW, submarine!' }, [1001, 1002]],
    [{ q_artist: 'beatles' }, [1001, 1003, 1002]],
    [{ q_artist: 'fab four' }, [1001, 1003, 1002]],
    [{ q_artist: 'Ноа Мюррей' }, [1004, 1008]],
    [{ q_lyrics: 'sailed sea' }, [1001, 1002]],
    [{ q_lyrics: 'andato più' }, [1007]],
    [{ q_lyrics: '春の風' }, [1006]],
    [{ q_track_artist: 'murray love' }, [1004]],
    [{ q_writer: 'lennon' }, [1001, 1002]],
    [{ q_writer: 'lovelace' }, [1004]],
    [{ q: 'yellow sea' }, [1001, 1002]],
    [{ q: 'nothing matches this' }, []],
  ];
  for (const [params, expected] of cases) {
    const r = await search(params);
    t.equal(r.status, 200, JSON.stringify(params));
    t.same([...r.ids].sort(), [...expected].sort(), JSON.stringify(params));
    t.equal(r.header.available, expected.length, `available for ${JSON.stringify(params)}`);
  }
});

t.test('track.search: relevance first, title over lyrics; then popularity', async (t) => {
  const r = await search({ q: 'empty love' });
  t.same(r.ids, [1004, 1005], 'the title match outranks the lyrics match');
  const all = await search({ q_artist: 'beatles' });
  t.same(all.ids, [1001, 1003, 1002], 'equal relevance: the most popular first');
});

t.test('track.search: filters', async (t) => {
  const cases: [Record<string, string | number>, number[]][] = [
    [{ f_artist_id: 503 }, [1007]],
    [{ f_music_genre_id: 20 }, [1007]],
    [{ f_lyrics_language: 'IT' }, [1007]],
    [{ q_artist: 'murray', f_has_lyrics: 1 }, [1004]],
    [{ q_artist: 'murray', f_has_lyrics: 0 }, [1004, 1008]],
    [{ f_has_subtitle: 1 }, [1001, 1004]],
    [{ f_has_rich_sync: 1 }, [1004]],
    [{ f_has_richsync: 'true' }, [1004]],
    [{ f_has_lyrics_analysis: 'true' }, [1001]],
    [{ q_artist: 'beatles', f_has_lyrics_analysis: 0 }, [1003, 1002]],
    [{ f_is_instrumental: 1 }, [1008]],
    [{ f_track_release_group_first_release_date_min: '20090101' }, [1004, 1002, 1005]],
    [{ f_track_release_group_first_release_date_max: '19700101' }, [1001, 1003]],
    [{ f_track_release_group_first_release_date_min: '19670101', f_track_release_group_first_release_date_max: '19991231' }, [1007, 1003]],
  ];
  for (const [params, expected] of cases) {
    const r = await search({ ...params, page_size: 100 });
    t.equal(r.status, 200, JSON.stringify(params));
    t.same(r.ids, expected, JSON.stringify(params));
    t.equal(r.header.available, expected.length);
  }
});

t.test('track.search: sorts, grouping by recording, paging', async (t) => {
  t.same((await search({ q_artist: 'beatles', s_track_rating: 'ASC' })).ids, [1002, 1003, 1001]);
  t.same((await search({ q_artist: 'beatles', s_track_release_date: 'desc' })).ids, [1002, 1003, 1001]);
  t.same((await search({ q: 'love', s_artist_rating: 'desc' })).ids, [1004, 1005]);
  const grouped = await search({ q_track: 'yellow submarine', g_commontrack: 1 });
  t.same(grouped.ids, [1001]);
  t.equal(grouped.header.available, 1);
  const page2 = await search({ q_artist: 'beatles', page: 2, page_size: 1 });
  t.same(page2.ids, [1003]);
  t.equal(page2.header.available, 3, 'available counts every match, not the page');
  const past = await search({ q_artist: 'beatles', page: 5, page_size: 1 });
  t.same(past.ids, []);
  t.equal(past.header.available, 3);
  const quorum = await search({ q_track: 'yellow', quorum_factor: '1' });
  t.equal(quorum.status, 200, 'quorum_factor is accepted');
});

t.test('track.search: under stacked sorts, relevance and popularity still order equal keys', async (t) => {
  // Artist rating ascending and release date descending make the sorts' part of the ranking key
  // largest (a low-rated artist, an unknown date): popularity must still tell these two apart.
  const own = await startTestServer(t, {
    records: [
      { type: 'artist', artist_id: 600, artist_name: 'Quiet Mole', artist_rating: 1 },
      { type: 'track', track_id: 1101, track_name: 'Moonlit Harbor', artist_id: 600, artist_name: 'Quiet Mole', track_rating: 80 },
      { type: 'track', track_id: 1102, track_name: 'Moonlit Harbor', artist_id: 600, artist_name: 'Quiet Mole', track_rating: 81 },
    ],
  });
  const r = await own.get('/ws/1.1/track.search', { apikey: own.keys.basic, q_track: 'moonlit harbor', s_artist_rating: 'asc', s_track_release_date: 'desc' });
  t.same(ids(r.json.message.body), [1102, 1101]);
});

t.test('matcher: a title and artist shared by hundreds of tracks still matches precisely (in the pool)', async (t) => {
  // Past PRECISE_OUTSIDE_POOL tracks the precise stage runs in a worker, not on the receiving thread.
  const own = await startTestServer(t, {
    records: [
      { type: 'artist', artist_id: 700, artist_name: 'Village Choir', artist_rating: 30 },
      ...Array.from({ length: 300 }, (_, i) => ({
        type: 'track', track_id: 2000 + i, track_name: 'Silent Night', artist_id: 700, artist_name: 'Village Choir', track_rating: i % 90,
      })),
    ],
  });
  const r = await own.get('/ws/1.1/matcher.track.get', { apikey: own.keys.basic, q_track: 'silent night', q_artist: 'village choir' });
  t.equal(r.status, 200);
  t.equal(r.json.message.body.track.track_id, 2089, 'the most popular of the 300');
  t.equal(r.json.message.header.mode, 'precise');
});

t.test('track.search: bad parameters are 400 with a hint', async (t) => {
  const cases: [Record<string, string | number>, RegExp][] = [
    [{ q: '!!!' }, /^q holds no letters or digits/],
    [{ q_track: '...' }, /^q_track holds no letters/],
    [{ page_size: 101 }, /^page_size must be an integer from 1 to 100/],
    [{ page: 2000, page_size: 10 }, /page × page_size must stay within 10000/],
    [{ f_artist_id: 'abc' }, /^f_artist_id must be a positive integer id/],
    [{ s_track_rating: 'up' }, /^s_track_rating must be asc or desc/],
    [{ f_track_release_group_first_release_date_min: '2020-01-01' }, /YYYYMMDD/],
    [{ f_lyrics_language: 'english' }, /language code/],
    [{ f_has_lyrics: 'yes' }, /must be 1, 0, true or false/],
  ];
  for (const [params, hint] of cases) {
    const r = await search(params);
    t.equal(r.status, 400, JSON.stringify(params));
    t.match(r.header.hint, hint, JSON.stringify(params));
  }
});

t.test('artist.search: names, aliases, translations, misspellings; json and xml', async (t) => {
  const cases: [Record<string, string | number>, number[]][] = [
    [{ q_artist: 'murray' }, [500]],
    [{ q_artist: 'Noah Murray' }, [500]],
    [{ q_artist: 'fab four' }, [502]],
    [{ q_artist: 'カズキ' }, [501]],
    [{ q_artist: 'Ноа Мюррей' }, [500]],
    [{ q_artist: 'Laura Pausni' }, [503]],
    [{ f_artist_id: 504 }, [504]],
    [{ q_artist: 'murray', f_artist_id: 504 }, []],
  ];
  for (const [params, expected] of cases) {
    const r = await search(params, 'artist.search');
    t.equal(r.status, 200, JSON.stringify(params));
    t.same(r.ids, expected, JSON.stringify(params));
    t.equal(r.header.available, expected.length);
  }
  const all = await search({ page_size: 2 }, 'artist.search');
  t.same(all.ids, [502, 503], 'no name: every artist, most popular first');
  t.equal(all.header.available, 5);
  const xml = await api.get('/ws/1.1/artist.search', { apikey: api.keys.free, q_artist: 'pausini', format: 'xml' });
  t.equal(xml.status, 200);
  t.match(xml.text, /<artist_list><artist><artist_id>503<\/artist_id>.*<artist_name>Laura Pausini<\/artist_name>/);
  t.match(xml.text, /<available>1<\/available>/);
  const bad = await search({ q_artist: '???' }, 'artist.search');
  t.equal(bad.status, 400);
});

t.test('matcher.track.get: ISRC, precise, fuzzy, alias stages; confidence and cache', async (t) => {
  const cases: [Record<string, string>, number, string[]][] = [
    [{ track_isrc: 'gbaye6600001' }, 1001, ['isrc']],
    [{ q_track: 'Yellow Submarine', q_artist: 'The Beatles' }, 1001, ['precise']],
    [{ q_track: 'Yellow Submarine (Remastered 2009)', q_artist: 'The Beatles' }, 1002, ['precise']],
    [{ q_track: 'Hey Jude', q_artist: 'The Beatles' }, 1003, ['precise']],
    [{ q_track: 'Empty Love', q_artist: 'Noah Murray feat. Zoe Kim' }, 1004, ['precise']],
    [{ q_track: 'Empty Love - Live', q_artist: 'noah murray' }, 1004, ['precise']],
    [{ q_track: 'Yelow Submarin', q_artist: 'The Beatels' }, 1001, ['fuzzy']],
    [{ q_track: 'Love Empty', q_artist: 'Murray Noah' }, 1004, ['fuzzy']],
    // An alias close to the name itself is already a fuzzy match of the name.
    [{ q_track: 'Empty Love', q_artist: 'N. Murray' }, 1004, ['fuzzy', 'alias']],
    [{ q_track: 'Yellow Submarine', q_artist: 'Fab Four' }, 1001, ['alias']],
    [{ q_track: 'Sakura Yume', q_artist: 'カズキ' }, 1006, ['precise', 'fuzzy', 'alias']],
    [{ q_track: 'Empty Love', q_artist: 'Ноа Мюррей' }, 1004, ['alias']],
  ];
  for (const [params, expected, modes] of cases) {
    const r = await search(params, 'matcher.track.get');
    t.equal(r.status, 200, JSON.stringify(params));
    t.equal(r.r.json.message.body.track?.track_id, expected, JSON.stringify(params));
    t.ok(modes.includes(r.header.mode), `${JSON.stringify(params)} mode ${r.header.mode}`);
    t.ok(r.header.confidence > 0 && r.header.confidence <= 1000, `confidence ${r.header.confidence}`);
    t.ok(Array.isArray(r.r.json.message.body.track.track_lyrics_translation_status));
  }
  const first = await search({ q_track: 'Paper Heart', q_artist: 'Zoe Kim' }, 'matcher.track.get');
  const again = await search({ q_track: 'paper heart!', q_artist: 'ZOE KIM' }, 'matcher.track.get');
  t.equal(first.header.cached, 0);
  t.equal(again.header.cached, 1, 'the same normalised question is answered from the cache');
  t.equal(again.r.json.message.body.track.track_id, 1005);

  const none = await search({ q_track: 'Nothing Like This', q_artist: 'Nobody At All' }, 'matcher.track.get');
  t.equal(none.status, 404);
  t.match(none.header.hint, /no track matches/);
  t.match(none.header, { confidence: 0, mode: 'none', cached: 0 }, 'a 404 still carries the matcher header fields');
  const unknownIsrc = await search({ track_isrc: 'ZZZZZ0000000' }, 'matcher.track.get');
  t.equal(unknownIsrc.status, 404);
  t.match(unknownIsrc.header, { confidence: 0, mode: 'none' });
  const missing = await search({ q_track: 'Yellow Submarine' }, 'matcher.track.get');
  t.equal(missing.status, 400);
  t.match(missing.header.hint, /q_track and q_artist are required unless track_isrc is given/);
});

t.test('matcher.lyrics.get and matcher.subtitle.get answer for the matched track', async (t) => {
  const lyrics = await search({ q_track: 'yellow submarine', q_artist: 'beatles' }, 'matcher.lyrics.get');
  t.equal(lyrics.status, 200);
  t.match(lyrics.r.json.message.body.lyrics.lyrics_body, /sailed to sea/);
  // 'beatles' is not the credit 'The Beatles' nor an alias: a fuzzy match, 0.55 × 1 (title) + 0.45 × 0.78 (artist).
  t.equal(lyrics.header.mode, 'fuzzy');
  t.equal(lyrics.header.confidence, 900);
  const subtitle = await search({ q_track: 'Yellow Submarine', q_artist: 'The Beatles', subtitle_format: 'mxm' }, 'matcher.subtitle.get');
  t.equal(subtitle.status, 200);
  t.match(subtitle.r.json.message.body.subtitle.subtitle_body, /"minutes"/);
  const free = await search({ q_track: 'Yellow Submarine', q_artist: 'The Beatles' }, 'matcher.subtitle.get', api.keys.free);
  t.equal(free.status, 403);
  const noSubtitle = await search({ q_track: 'Hey Jude', q_artist: 'The Beatles' }, 'matcher.subtitle.get');
  t.equal(noSubtitle.status, 404);
  const noLyrics = await search({ q_track: 'Instrumental Theme', q_artist: 'Noah Murray' }, 'matcher.lyrics.get');
  t.equal(noLyrics.status, 404);
});
