/** A small hand-made catalog covering every kind of content and restriction, for HTTP tests. */
const lrc = '[00:12.30] First line of the chorus\n[00:15.00] Second line here\n[01:02.05] Last line';
const richsync = [
  { ts: 12.3, te: 15, l: [{ c: 'First', o: 0 }, { c: ' ', o: 0.4 }, { c: 'line', o: 0.5 }], x: 'First line' },
  { ts: 15, te: 62.05, l: [{ c: 'Second', o: 0 }], x: 'Second' },
];
const genre = { music_genre: { music_genre_id: 14, music_genre_parent_id: 34, music_genre_name: 'Pop' } };

export const ARTIST = {
  type: 'artist', artist_id: 100, artist_name: 'The Fixtures', artist_country: 'GB', artist_rating: 90,
  artist_alias_list: [{ artist_alias: 'Fixtures' }], begin_date: '1990-05-00',
  artist_name_translation_list: [{ artist_name_translation: { language: 'ja', translation: 'ザ・フィクスチャーズ' } }],
};
export const ARTIST2 = { type: 'artist', artist_id: 200, artist_name: 'Only Italy', artist_rating: 95 };
export const ALBUM = {
  type: 'album', album_id: 1000, album_name: 'Tests', artist_id: 100, album_release_date: '2020-03-01',
  album_coverart_100x100: 'https://covers.example/1000/100.jpg',
};
export const ALBUM_OLD = { type: 'album', album_id: 1001, album_name: 'Early Tests', artist_id: 100, album_release_date: '1999-01-01' };

export const LYRICS = 'First line of the chorus\nSecond line here\n\nA verse that goes on and on\nAnd then some more words\n\nLast line';

export const TRACKS = [
  {
    type: 'track', track_id: 1, track_name: 'Full Song', artist_id: 100, artist_name: 'The Fixtures', album_id: 1000,
    commontrack_id: 10, track_isrc: 'GBAAA2000001', track_spotify_id: '4uLU6hMCjMI75M1A2tKUQC', track_itunes_id: '123456',
    track_rating: 80, num_favourite: 500, track_length: 70, primary_genres: { music_genre_list: [genre] },
    lyrics: { lyrics_body: LYRICS, lyrics_language: 'en', lyrics_copyright: 'Writer(s): A. Tester' },
    subtitle: { subtitle_body: lrc, subtitle_length: 70 },
    richsync: { richsync_body: richsync, richsync_length: 70 },
    snippet: { snippet_body: 'First line of the chorus' },
    analysis: {
      meaning: { description: 'about tests', explanation: 'It is about tests.' },
      moods: { description: 'calm', main_moods: ['calm'] },
      moderation: { categories: [{ category: 'violence', is_present: false, score: 0.01 }], description: '', needs_moderation: false },
    },
  },
  {
    type: 'track', track_id: 2, track_name: 'Full Song (Live)', artist_id: 100, artist_name: 'The Fixtures', album_id: 1001,
    commontrack_id: 10, track_isrc: 'GBAAA2000002', track_rating: 30, num_favourite: 20, track_length: 75,
    lyrics: { lyrics_body: LYRICS, lyrics_language: 'en' },
  },
  {
    type: 'track', track_id: 3, track_name: 'Blocked in Italy', artist_id: 100, artist_name: 'The Fixtures', album_id: 1000,
    track_isrc: 'GBAAA2000003', track_rating: 70, num_favourite: 100, track_length: 200,
    region_restriction: { allowed: ['XW'], blocked: ['IT'] },
    lyrics: { lyrics_body: 'Parole vietate in Italia\nma non altrove', lyrics_language: 'it' },
    snippet: { snippet_body: 'Parole vietate in Italia' },
  },
  {
    type: 'track', track_id: 4, track_name: 'Blocked Everywhere', artist_id: 100, artist_name: 'The Fixtures', album_id: 1000,
    track_rating: 60, num_favourite: 90, lyrics: { lyrics_body: 'nobody may read this', lyrics_language: 'en', region_restriction: { allowed: [], blocked: ['XW'] } },
  },
  {
    type: 'track', track_id: 5, track_name: 'Instrumental Piece', artist_id: 100, artist_name: 'The Fixtures', album_id: 1000,
    instrumental: 1, track_rating: 10, num_favourite: 1,
  },
  {
    type: 'track', track_id: 6, track_name: 'Italia Sola', artist_id: 200, artist_name: 'Only Italy',
    track_rating: 95, num_favourite: 1000, region_restriction: { allowed: ['IT'], blocked: [] },
    lyrics: { lyrics_body: 'solo in Italia', lyrics_language: 'it' },
  },
];

export const FIXTURE_RECORDS = [ARTIST, ARTIST2, ALBUM, ALBUM_OLD, ...TRACKS];
