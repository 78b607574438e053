/** Derived fields of stored records (src/catalog/derive.ts): what import adds to a track line and its content. */
import t from 'tap';
import { averageGroups, contentRecords, precompute, syncedForms, trackRecord, withAlbum } from '../../src/catalog/derive.js';
import type { AlbumRecord } from '../../src/catalog/records.js';
import { albumSchema, trackSchema, type TrackInput } from '../../src/catalog/schema.js';

const NOW = '2025-03-01T12:00:00Z';
const EARLIER = '2024-05-01T10:00:00Z';

/** A track line as import sees it: validated, every default filled. */
const track = (fields: Record<string, unknown> = {}): TrackInput =>
  trackSchema.parse({ type: 'track', track_id: 12, track_name: 'Empty Love (Live)', artist_id: 7, artist_name: 'Noah Murray', ...fields });

const { type: _type, ...albumFields } = albumSchema.parse({
  type: 'album', album_id: 70, album_name: 'First Light', artist_id: 7, album_release_date: '2019-04-00',
  album_coverart_100x100: 'https://covers.example/70/100.jpg', album_coverart_350x350: 'https://covers.example/70/350.jpg',
  album_coverart_500x500: 'https://covers.example/70/500.jpg', album_coverart_800x800: 'https://covers.example/70/800.jpg',
});
const ALBUM: AlbumRecord = { ...albumFields, artist_name: 'Noah Murray', updated_time: EARLIER, hash: 'a70', derived: 0 };

/** Three richsync lines of 1, 2 and 2 character groups. */
const RICHSYNC = [
  { ts: 1, te: 2, l: [{ c: 'Hold', o: 0 }], x: 'Hold' },
  { ts: 2, te: 3, l: [{ c: 'Let', o: 0 }, { c: ' go', o: 0.3 }], x: 'Let go' },
  { ts: 3, te: 4, l: [{ c: 'Never', o: 0 }, { c: ' mind', o: 0.4 }], x: 'Never mind' },
];

t.test('trackRecord: content left out; commontrack, album, time, ISRCs and share path derived', async (t) => {
  const r = trackRecord(track(), undefined, 'h1', NOW);
  for (const k of ['type', 'lyrics', 'subtitle', 'richsync', 'snippet', 'analysis', 'translations']) t.notOk(k in r, `no ${k} in the record`);
  t.hasStrict(r, {
    track_id: 12, commontrack_id: 12, album_id: 0, album_name: '', album_coverart_100x100: '', first_release_date: '',
    updated_time: NOW, hash: 'h1', has_lyrics: 0, has_subtitles: 0, has_richsync: 0, has_lyrics_analysis: 0, has_snippet: 0,
  });
  t.same(r.commontrack_isrcs, []);
  t.same(r.track_lyrics_translation_status, []);
  t.equal(r.share_path, '/lyrics/12/Noah-Murray/Empty-Love-Live');

  const own = trackRecord(track({ commontrack_id: 10, album_id: 70, updated_time: EARLIER, track_isrc: 'gb-aaa-20-00001' }), undefined, 'h2', NOW);
  t.equal(own.commontrack_id, 10, 'a given commontrack_id is kept');
  t.equal(own.album_id, 70);
  t.equal(own.updated_time, EARLIER, 'a given updated_time is kept, not the import time');
  t.same(own.commontrack_isrcs, ['GBAAA2000001'], 'the track starts its version group’s ISRCs');
});

t.test('trackRecord: every field of the line but its content, in one order whatever the line left out', async (t) => {
  const full = track({ commontrack_id: 10, album_id: 70, updated_time: EARLIER, region_restriction: { allowed: ['GB'] } });
  const content = ['type', 'lyrics', 'subtitle', 'richsync', 'snippet', 'analysis', 'translations', 'region_restriction'];
  const record = trackRecord(full, undefined, 'h', NOW) as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(full)) if (!content.includes(k)) t.same(record[k], v, `${k} kept`);
  t.same(Object.keys(trackRecord(track(), ALBUM, 'h', NOW)), Object.keys(record), 'a line with the optional fields left out: the same fields, in the same order');
});

t.test('trackRecord: the album fills the names, covers and release date the track leaves empty; the track’s own win', async (t) => {
  const inherited = trackRecord(track({ album_id: 70 }), ALBUM, 'h', NOW);
  t.hasStrict(inherited, {
    album_name: 'First Light', first_release_date: '2019-04-00',
    album_coverart_100x100: 'https://covers.example/70/100.jpg', album_coverart_350x350: 'https://covers.example/70/350.jpg',
    album_coverart_500x500: 'https://covers.example/70/500.jpg', album_coverart_800x800: 'https://covers.example/70/800.jpg',
  });
  const own = trackRecord(
    track({ album_id: 70, album_name: 'Live at Home', album_coverart_350x350: 'https://own.example/350.jpg', first_release_date: '2020-01-01' }),
    ALBUM, 'h', NOW,
  );
  t.hasStrict(own, {
    album_name: 'Live at Home', first_release_date: '2020-01-01',
    album_coverart_350x350: 'https://own.example/350.jpg', album_coverart_100x100: 'https://covers.example/70/100.jpg',
  });
});

// A reading thread makes a track's record before the writer knows its album: every field that
// depends on the album must come from withAlbum, or the two ways would differ.
t.test('withAlbum: a record made without the album (on the reading thread), completed with it, is the record made with it', async (t) => {
  const lines = [
    track({ album_id: 70 }),
    track({ album_id: 70, album_name: 'Live at Home', album_coverart_350x350: 'https://own.example/350.jpg', first_release_date: '2020-01-01' }),
    track({ album_id: 70, album_coverart_800x800: 'https://own.example/800.jpg' }),
    track(),
  ];
  const bare: AlbumRecord = { ...ALBUM, album_name: 'Bare', album_coverart_100x100: '', album_release_date: '' };
  for (const [i, line] of lines.entries()) {
    for (const album of [ALBUM, bare, undefined]) {
      const made = withAlbum(trackRecord(line, undefined, 'h', NOW), album);
      t.strictSame(made, trackRecord(line, album, 'h', NOW), `line ${i}, album ${album?.album_name ?? 'none'}`);
      t.same(Object.keys(made), Object.keys(trackRecord(line, album, 'h', NOW)), 'the same fields in the same order');
    }
  }
});

t.test('trackRecord: region restriction is the track’s own, else its lyrics’, else worldwide', async (t) => {
  const lyrics = { lyrics_body: 'words', region_restriction: { blocked: ['it'] } };
  t.same(trackRecord(track({ region_restriction: { allowed: ['GB'] }, lyrics }), undefined, 'h', NOW).region_restriction, { allowed: ['GB'], blocked: [] });
  t.same(trackRecord(track({ lyrics }), undefined, 'h', NOW).region_restriction, { allowed: [], blocked: ['IT'] });
  t.same(trackRecord(track({ lyrics: { lyrics_body: 'words' } }), undefined, 'h', NOW).region_restriction, { allowed: ['XW'], blocked: [] });
});

t.test('trackRecord: one availability flag per content; lyrics only when the body has words', async (t) => {
  t.equal(trackRecord(track({ lyrics: { lyrics_body: '  \n \n' } }), undefined, 'h', NOW).has_lyrics, 0, 'blank lyrics are no lyrics');
  const full = trackRecord(
    track({
      lyrics: { lyrics_body: 'Hold on' }, subtitle: { subtitle_body: '[00:01.00] Hold on' }, richsync: { richsync_body: RICHSYNC },
      snippet: { snippet_body: 'Hold on' }, analysis: { moods: { main_moods: ['calm'] } },
    }),
    undefined, 'h', NOW,
  );
  t.hasStrict(full, { has_lyrics: 1, has_subtitles: 1, has_richsync: 1, has_snippet: 1, has_lyrics_analysis: 1 });
});

t.test('trackRecord: translation status is the share of non-blank lyric lines translated, to two decimals, unless given', async (t) => {
  const r = trackRecord(
    track({
      lyrics: { lyrics_body: 'one\ntwo\n\nthree', lyrics_language: 'en' },
      translations: [
        { language: 'it', lyrics_body: 'uno\n\n\ntre' },
        { language: 'FR', lyrics_body: 'un\ndeux\nnot a line of the original\ntrois' },
        { language: 'de', lyrics_body: '', perc: 0.5 },
      ],
    }),
    undefined, 'h', NOW,
  );
  t.same(r.track_lyrics_translation_status, [
    { from: 'en', to: 'it', perc: 0.67 },
    { from: 'en', to: 'fr', perc: 1 },
    { from: 'en', to: 'de', perc: 0.5 },
  ], 'two of three; a line translating a blank one does not count; a given share is kept');
  const blank = trackRecord(track({ lyrics: { lyrics_body: '' }, translations: [{ language: 'it', lyrics_body: 'uno' }] }), undefined, 'h', NOW);
  t.same(blank.track_lyrics_translation_status, [{ from: '', to: 'it', perc: 0 }], 'nothing to translate: 0, not NaN');
});

t.test('contentRecords: content takes the track’s id, restriction and time where it has none; flags are or-ed', async (t) => {
  const input = track({
    explicit: 1, track_length: 212, updated_time: EARLIER, region_restriction: { allowed: ['GB'] },
    lyrics: { lyrics_body: 'Hold on', lyrics_language: 'en', verified: 1 },
    subtitle: { subtitle_id: 900, subtitle_body: '[00:01.00] Hold on', restricted: 1, region_restriction: { blocked: ['IT'] }, updated_time: NOW },
  });
  const c = contentRecords(input, trackRecord(input, undefined, 'h', NOW));
  t.same(c.lyrics, {
    lyrics_copyright: 'Lyrics powered by Refrain', restricted: 0, region_restriction: { allowed: ['GB'], blocked: [] }, updated_time: EARLIER,
    lyrics_id: 12, lyrics_body: 'Hold on', lyrics_language: 'en', explicit: 1, instrumental: 0, verified: 1,
  });
  t.same(c.subtitles, {
    lyrics_copyright: 'Lyrics powered by Refrain', restricted: 1, region_restriction: { allowed: [], blocked: ['IT'] }, updated_time: NOW,
    subtitle_id: 900, subtitle_body: '[00:01.00] Hold on', subtitle_language: 'en', subtitle_length: 212,
  }, 'its own id, restriction and time win; language and length from the lyrics and the track');
  t.same(Object.keys(c).sort(), ['lyrics', 'subtitles']);

  const restricted = track({ restricted: 1, lyrics: { lyrics_body: 'x', explicit: 1, instrumental: 1 } });
  t.hasStrict(contentRecords(restricted, trackRecord(restricted, undefined, 'h', NOW)).lyrics, { restricted: 1, explicit: 1, instrumental: 1 },
    'a restricted track restricts its content; the lyrics’ own flags stand');
  const bare = track();
  t.same(contentRecords(bare, trackRecord(bare, undefined, 'h', NOW)), {}, 'no content, no records');
});

t.test('contentRecords: richsync, snippet and analysis', async (t) => {
  const input = track({
    track_length: 30, updated_time: EARLIER,
    lyrics: { lyrics_body: 'Hold on', lyrics_language: 'en' },
    subtitle: { subtitle_body: '[00:01.00] Hold on', subtitle_language: 'PT-br', subtitle_length: 70.6 },
    richsync: { richsync_body: RICHSYNC, richssync_language: 'es', richsync_length: 10.4 },
    snippet: { snippet_body: 'Hold on', snippet_id: 77, instrumental: 1 },
    analysis: { moods: { main_moods: ['calm'] } },
  });
  const c = contentRecords(input, trackRecord(input, undefined, 'h', NOW));
  t.hasStrict(c.subtitles, { subtitle_id: 12, subtitle_language: 'pt-br', subtitle_length: 71 }, 'lengths round to whole seconds');
  t.hasStrict(c.richsync, {
    richsync_id: 12, richsync_body: JSON.stringify(RICHSYNC), richsync_language: 'es', richsync_length: 10, richsync_avg_count: 1.67,
  }, 'an array body is stored as its JSON text; the misspelled richssync_language is read');
  t.hasStrict(c.snippets, { snippet_id: 77, snippet_language: 'en', instrumental: 1, restricted: 0, updated_time: EARLIER });
  t.same(c.analysis, { moods: { main_moods: ['calm'] }, updated_time: EARLIER });

  const noLanguage = track({ richsync: { richsync_body: JSON.stringify(RICHSYNC), richsync_avg_count: 4 } });
  t.hasStrict(contentRecords(noLanguage, trackRecord(noLanguage, undefined, 'h', NOW)).richsync, {
    richsync_language: '', richsync_avg_count: 4, richsync_length: 0, richsync_body: JSON.stringify(RICHSYNC),
  }, 'a precomputed average is kept; a string body is stored as given');
});

t.test('contentRecords: a translation’s subtitle is the track’s, each timed line singing the translation of the line it repeats', async (t) => {
  const lrc = [
    '[ar: Noah Murray]',
    '[00:01.00] Hold on',
    '[00:03.50] Let it go',
    '[00:05.00][00:09.00] Hold on',
    '[00:07.00]Never mind',
    'not a timed line',
    '[00:11.00] ',
    '[00:13.00] Let it go',
  ].join('\n');
  // Translated where the track's subtitle has its first two sung lines (line 0 is a tag).
  const frLrc = '[ar: Noah Murray]\n[00:01.00] Tiens bon\n[00:03.50] Laisse aller';
  const input = track({
    updated_time: EARLIER,
    lyrics: { lyrics_body: 'Hold on\nLet it go\n\nHold on\nNever mind', lyrics_language: 'en' },
    subtitle: { subtitle_body: lrc },
    translations: [
      { language: 'it', lyrics_body: 'Tieni duro\n\n\nTieni duro\nNon importa' },
      { language: 'fr', lyrics_body: 'Tiens bon\nLaisse aller\n\nTiens bon\nPeu importe', subtitle_body: frLrc, restricted: 1, updated_time: NOW },
    ],
  });
  const [it, fr] = contentRecords(input, trackRecord(input, undefined, 'h', NOW)).translations!.translations;
  t.equal(it.subtitle_body, [
    '[ar: Noah Murray]',
    '[00:01.00] Tieni duro',
    '[00:03.50]',
    '[00:05.00][00:09.00] Tieni duro',
    '[00:07.00] Non importa',
    'not a timed line',
    '[00:11.00]',
    '[00:13.00]',
  ].join('\n'), 'untranslated lines keep only their time; lines that are not timed stay as they are');
  t.hasStrict(it, { language: 'it', perc: 0.75, subtitle_perc: 0.6, restricted: 0, updated_time: EARLIER },
    'three of four lyric lines; three of five sung subtitle lines');
  t.hasStrict(fr, { language: 'fr', perc: 1, subtitle_body: frLrc, subtitle_perc: 0.4, restricted: 1, updated_time: NOW },
    'a given subtitle is kept, and measured line by line against the track’s');

  const noSubtitle = track({ lyrics: { lyrics_body: 'Hold on' }, translations: [{ language: 'it', lyrics_body: 'Tieni duro', perc: 0.4 }] });
  t.hasStrict(contentRecords(noSubtitle, trackRecord(noSubtitle, undefined, 'h', NOW)).translations!.translations[0], {
    perc: 0.4, subtitle_body: '', subtitle_perc: 0,
  }, 'no track subtitle: none for the translation; the status’s share is the record’s');
});

t.test('precompute fills the richsync average once, on the reading thread', async (t) => {
  const input = track({ richsync: { richsync_body: RICHSYNC } });
  t.equal(input.richsync!.richsync_avg_count, undefined);
  precompute(input);
  t.equal(input.richsync!.richsync_avg_count, 1.67);
  const given = track({ richsync: { richsync_body: RICHSYNC, richsync_avg_count: 9 } });
  precompute(given);
  t.equal(given.richsync!.richsync_avg_count, 9, 'a given average is not recomputed');
  const none = track();
  precompute(none);
  t.same(none, track(), 'a track without richsync is left as it is');

  const lyrics = { lyrics_body: 'Hold\nLet go\nNever mind' };
  const text = track({ lyrics, richsync: { richsync_body: JSON.stringify(RICHSYNC) } });
  const forms = syncedForms(text);
  t.ok(forms.richsync, 'a richsync kept in its stored form');
  precompute(text, forms);
  t.equal(text.richsync!.richsync_avg_count, 1.67, 'counted from the stored form as from the text');
  const empty = track({ lyrics, richsync: { richsync_body: '[]' } });
  precompute(empty, syncedForms(empty));
  t.equal(empty.richsync!.richsync_avg_count, 0, 'no lines: 0, not NaN');
});

t.test('averageGroups: mean character groups per line, to two decimals, from the array or its JSON text', async (t) => {
  t.equal(averageGroups(RICHSYNC), 1.67);
  t.equal(averageGroups(JSON.stringify(RICHSYNC)), 1.67);
  t.equal(averageGroups(RICHSYNC.slice(1)), 2);
  t.equal(averageGroups([]), 0);
  t.equal(averageGroups('[]'), 0, 'no lines: 0, not NaN');
});
