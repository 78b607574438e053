/** The small catalog made for track.search, artist.search and the matchers (test/http/search.test.ts, pool-methods.test.ts). */
const pop = { music_genre: { music_genre_id: 14, music_genre_parent_id: 34, music_genre_name: 'Pop' } };
const italian = { music_genre: { music_genre_id: 20, music_genre_parent_id: 34, music_genre_name: 'Italian' } };
const SUBMARINE = 'In the town where I was born\nLived a man who sailed to sea\nAnd he told us of his life';
const LRC = '[00:01.00] In the town where I was born\n[00:04.00] Lived a man who sailed to sea';

export const SEARCH_RECORDS = [
  { type: 'artist', artist_id: 500, artist_name: 'Noah Murray', artist_rating: 40, artist_alias_list: [{ artist_alias: 'N. Murray' }],
    artist_name_translation_list: [{ artist_name_translation: { language: 'ru', translation: 'Ноа Мюррей' } }] },
  { type: 'artist', artist_id: 501, artist_name: 'Kazuki', artist_rating: 20,
    artist_name_translation_list: [{ artist_name_translation: { language: 'ja', translation: 'カズキ' } }] },
  { type: 'artist', artist_id: 502, artist_name: 'The Beatles', artist_rating: 99, artist_alias_list: [{ artist_alias: 'Fab Four' }] },
  { type: 'artist', artist_id: 503, artist_name: 'Laura Pausini', artist_rating: 70 },
  { type: 'artist', artist_id: 504, artist_name: 'Zoe Kim', artist_rating: 10 },
  { type: 'track', track_id: 1001, track_name: 'Yellow Submarine', artist_id: 502, artist_name: 'The Beatles', track_rating: 90,
    track_isrc: 'GBAYE6600001', first_release_date: '1966-08-05', primary_genres: { music_genre_list: [pop] },
    lyrics: { lyrics_body: SUBMARINE, lyrics_language: 'en', lyrics_copyright: 'Writer(s): John Lennon, Paul McCartney' },
    subtitle: { subtitle_body: LRC, subtitle_length: 10 }, analysis: { moods: { main_moods: ['happy'] } } },
  { type: 'track', track_id: 1002, track_name: 'Yellow Submarine (Remastered 2009)', artist_id: 502, artist_name: 'The Beatles',
    commontrack_id: 1001, track_rating: 40, first_release_date: '2009-09-09', primary_genres: { music_genre_list: [pop] },
    lyrics: { lyrics_body: SUBMARINE, lyrics_language: 'en', lyrics_copyright: 'Writer(s): John Lennon, Paul McCartney' } },
  { type: 'track', track_id: 1003, track_name: 'Hey Jude - Live', artist_id: 502, artist_name: 'The Beatles', track_rating: 60,
    first_release_date: '1968-08-26', lyrics: { lyrics_body: 'Hey Jude, do not make it bad, take a sad song', lyrics_language: 'en' } },
  { type: 'track', track_id: 1004, track_name: 'Empty Love', artist_id: 500, artist_name: 'Noah Murray', track_rating: 50,
    first_release_date: '2015-01-01', writer_list: [{ writer: { writer_name: 'Ada Lovelace' } }],
    lyrics: { lyrics_body: 'Your love is like a ghost tonight', lyrics_language: 'en' },
    richsync: { richsync_body: [{ ts: 1, te: 2, l: [{ c: 'Your', o: 0 }], x: 'Your' }], richsync_length: 10 },
    subtitle: { subtitle_body: '[00:01.00] Your love is like a ghost tonight', subtitle_length: 10 } },
  { type: 'track', track_id: 1005, track_name: 'Paper Heart', artist_id: 504, artist_name: 'Zoe Kim', track_rating: 30,
    first_release_date: '2019-05-05', lyrics: { lyrics_body: 'I wrote my love on a paper heart, empty love letters', lyrics_language: 'en' } },
  { type: 'track', track_id: 1006, track_name: 'Sakura Yume', artist_id: 501, artist_name: 'Kazuki', track_rating: 20,
    lyrics: { lyrics_body: '桜の夢を見た 春の風が吹く', lyrics_language: 'ja' } },
  { type: 'track', track_id: 1007, track_name: 'La Solitudine', artist_id: 503, artist_name: 'Laura Pausini', track_rating: 80,
    first_release_date: '1993-02-25', primary_genres: { music_genre_list: [italian] },
    lyrics: { lyrics_body: "Marco se n'è andato e non ritorna più", lyrics_language: 'it' } },
  { type: 'track', track_id: 1008, track_name: 'Instrumental Theme', artist_id: 500, artist_name: 'Noah Murray', instrumental: 1, track_rating: 5 },
  { type: 'track', track_id: 1009, track_name: 'Shape of Light (feat. Noah Murray)', artist_id: 504, artist_name: 'Zoe Kim', track_rating: 25,
    lyrics: { lyrics_body: 'light on the water', lyrics_language: 'en' } },
];
