import t from 'tap';
import { isrcPattern } from '../../src/catalog/schema.js';
import { MODERATION_CATEGORIES } from '../../src/generate/analysis.js';
import { parseLrc, parsedCatalog, type Json } from './fixtures/catalog.js';

const { artists, albums, tracks } = parsedCatalog();
const withLyrics = tracks.filter((r) => r.lyrics);
const share = (items: Json[], test: (r: Json) => boolean): number => items.filter(test).length / items.length;

t.test('ISRCs are well-formed and unique', async (t) => {
  t.equal(tracks.filter((r) => !isrcPattern.test(r.track_isrc)).length, 0);
  t.equal(new Set(tracks.map((r) => r.track_isrc)).size, tracks.length);
});

t.test('streaming and store ids have their shapes', async (t) => {
  const spotify = tracks.filter((r) => r.track_spotify_id);
  const itunes = tracks.filter((r) => r.track_itunes_id);
  t.ok(spotify.length / tracks.length > 0.75, 'most tracks have a streaming id');
  t.ok(itunes.length / tracks.length > 0.5, 'many tracks have a store id');
  t.ok(spotify.every((r) => /^[0-9A-Za-z]{22}$/.test(r.track_spotify_id)));
  t.ok(itunes.every((r) => /^\d{9,10}$/.test(r.track_itunes_id)));
});

t.test('subtitle times increase and end before the track does', async (t) => {
  const subtitled = withLyrics.filter((r) => r.subtitle);
  t.ok(Math.abs(subtitled.length / withLyrics.length - 0.6) < 0.05, 'about 60% of lyrics have a subtitle');
  const problems: string[] = [];
  for (const r of subtitled) {
    const lrc = parseLrc(r.subtitle.subtitle_body);
    const sung = r.lyrics.lyrics_body.split('\n').filter((l: string) => l !== '');
    if (lrc.map((l) => l.text).join('\n') !== sung.join('\n')) problems.push(`${r.track_id}: LRC lines differ from lyric lines`);
    if (lrc[0].cs < 300) problems.push(`${r.track_id}: no intro`);
    if (lrc.some((l, i) => i > 0 && l.cs <= lrc[i - 1].cs)) problems.push(`${r.track_id}: times not increasing`);
    if (lrc[lrc.length - 1].cs >= r.track_length * 100) problems.push(`${r.track_id}: past the end`);
    if (r.subtitle.subtitle_length !== r.track_length || r.subtitle.subtitle_language !== r.lyrics.lyrics_language) problems.push(`${r.track_id}: length or language`);
  }
  t.same(problems, []);
});

t.test('richsync lines are the subtitle lines, with valid word offsets', async (t) => {
  const synced = withLyrics.filter((r) => r.richsync);
  t.ok(synced.every((r) => r.subtitle), 'richsync only where there is a subtitle');
  t.ok(Math.abs(synced.length / withLyrics.length - 0.25) < 0.04, 'about 25% of lyrics have a richsync');
  const problems: string[] = [];
  for (const r of synced) {
    const lrc = parseLrc(r.subtitle.subtitle_body);
    const body = JSON.parse(r.richsync.richsync_body) as Array<{ ts: number; te: number; l: Array<{ c: string; o: number }>; x: string }>;
    if (body.length !== lrc.length) problems.push(`${r.track_id}: ${body.length} richsync lines, ${lrc.length} LRC lines`);
    body.forEach((line, i) => {
      const where = `${r.track_id} line ${i}`;
      if (line.x !== lrc[i].text || Math.round(line.ts * 100) !== lrc[i].cs) problems.push(`${where}: text or ts differs from the LRC`);
      const end = i + 1 < lrc.length ? lrc[i + 1].cs : r.track_length * 100;
      if (i + 1 < lrc.length ? Math.round(line.te * 100) !== end : line.te >= r.track_length) problems.push(`${where}: te`);
      if (line.l.map((g) => g.c).join('') !== line.x) problems.push(`${where}: groups do not spell the line`);
      if (line.l.some((g, k) => (k % 2 === 1) !== (g.c === ' '))) problems.push(`${where}: words and single spaces do not alternate`);
      if (line.l[0].o !== 0 || line.l.some((g, k) => k > 0 && g.o <= line.l[k - 1].o)) problems.push(`${where}: offsets not increasing from 0`);
      if (line.l[line.l.length - 1].o >= line.te - line.ts) problems.push(`${where}: offset beyond te`);
    });
    if (r.richsync.richsync_length !== r.track_length) problems.push(`${r.track_id}: richsync_length`);
  }
  t.same(problems, []);
});

t.test('every track with lyrics has a snippet: one line of its chorus', async (t) => {
  t.ok(withLyrics.every((r) => r.snippet));
  t.ok(tracks.every((r) => r.lyrics || !r.snippet), 'no snippet without lyrics');
  const problems: string[] = [];
  for (const r of withLyrics) {
    const line = r.snippet.snippet_body as string;
    const sections = (r.lyrics.lyrics_body as string).split('\n\n').map((s) => s.split('\n'));
    // The chorus is the section that comes back: the snippet line is in a section sung at least twice.
    const repeated = sections.filter((s) => s.includes(line));
    if (line.includes('\n') || repeated.length < 2) problems.push(`${r.track_id}: ${JSON.stringify(line)}`);
  }
  t.same(problems, []);
});

t.test('lyrics have sections, a repeated chorus and a sensible size', async (t) => {
  const sizes = withLyrics.map((r) => Buffer.byteLength(r.lyrics.lyrics_body));
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  t.ok(mean >= 1200 && mean <= 1800, `mean lyrics size ${Math.round(mean)} bytes`);
  t.ok(withLyrics.every((r) => r.lyrics.lyrics_body.split('\n\n').length >= 4 && !/\n{3}/.test(r.lyrics.lyrics_body)));
  t.ok(withLyrics.every((r) => /^Writer\(s\): .+\nLyrics powered by Refrain$/.test(r.lyrics.lyrics_copyright)));
  const languages = new Set(withLyrics.map((r) => r.lyrics.lyrics_language));
  t.same([...languages].sort(), ['de', 'en', 'es', 'fr', 'it', 'pt']);
  t.ok(share(withLyrics, (r) => r.lyrics.lyrics_language === 'en') > 0.5, 'mostly English');
  // Shared phrases: one common line appears in many different songs.
  const songsWith = (line: string): number => new Set(withLyrics.filter((r) => r.lyrics.lyrics_body.split('\n').includes(line)).map((r) => r.commontrack_id)).size;
  t.ok(songsWith("I can't get you out of my head") > 50);
  t.equal(new Set(withLyrics.map((r) => r.lyrics.lyrics_body)).size, new Set(withLyrics.map((r) => r.commontrack_id)).size, 'each recording has its own lyrics');
});

t.test('instrumentals have no lyrics', async (t) => {
  const instrumental = tracks.filter((r) => r.instrumental === 1);
  t.ok(instrumental.length > 10);
  t.ok(instrumental.every((r) => !r.lyrics && !r.subtitle && !r.snippet && !r.analysis));
});

t.test('analysis agrees with the lyrics', async (t) => {
  const analysed = withLyrics.filter((r) => r.analysis);
  t.ok(Math.abs(analysed.length / withLyrics.length - 0.3) < 0.05, 'about 30% of lyrics are analysed');
  const problems: string[] = [];
  let entities = 0;
  for (const r of analysed) {
    const { analysis: a, lyrics } = r;
    const body = lyrics.lyrics_body as string;
    const lines = new Set(body.split('\n'));
    for (const e of a.entities.entity_list) {
      entities++;
      if (e.occurrences !== e.matches.length) problems.push(`${r.track_id}: occurrences`);
      for (const m of e.matches) if (body.slice(m.start_char, m.end_char) !== m.matched_text) problems.push(`${r.track_id}: match ${JSON.stringify(m)}`);
    }
    const [language] = a.language_detection.languages;
    if (language.language_iso_code_1 !== lyrics.lyrics_language || !(language.percentage > 0)) problems.push(`${r.track_id}: language`);
    for (const theme of a.themes.main_themes) for (const q of theme.quotes) if (!lines.has(q)) problems.push(`${r.track_id}: quote ${q}`);
    const categories = a.moderation.categories.map((c: Json) => c.category);
    if (categories.join() !== MODERATION_CATEGORIES.join()) problems.push(`${r.track_id}: categories`);
    const flagged = a.moderation.categories.some((c: Json) => c.is_present);
    if (flagged !== a.moderation.needs_moderation || (flagged && r.explicit !== 1)) problems.push(`${r.track_id}: moderation vs explicit`);
    const religious = a.entities.entity_list.some((e: Json) => e.categories.includes('Religion'));
    if (religious !== a.religion.has_references) problems.push(`${r.track_id}: religion`);
    if (a.moods.main_moods.length === 0 || !a.meaning.description || !a.rating.audience) problems.push(`${r.track_id}: moods, meaning or rating missing`);
  }
  t.same(problems, []);
  t.ok(entities > 100, `${entities} entities found`);
  t.ok(analysed.some((r) => r.analysis.moderation.needs_moderation), 'some analyses flag content');
});

t.test('popularity is Zipf-like: a few hits, a long tail', async (t) => {
  const favourites = tracks.map((r) => r.num_favourite).sort((a, b) => b - a);
  const total = favourites.reduce((a, b) => a + b, 0);
  const top = favourites.slice(0, tracks.length / 100).reduce((a, b) => a + b, 0);
  t.ok(top / total > 0.3, `top 1% hold ${(100 * top / total).toFixed(0)}% of favourites`);
  t.ok(favourites[tracks.length >> 1] < 100, 'the median track has few favourites');
  t.ok(tracks.every((r) => r.track_rating >= 1 && r.track_rating <= 100));
  const rating = (n: number): number => tracks.find((r) => r.num_favourite === n)!.track_rating;
  t.ok(rating(favourites[0]) > rating(favourites[favourites.length - 1]), 'rating follows favourites');
});

t.test('versions share a commontrack_id and the lyrics, nothing else', async (t) => {
  const groups = new Map<number, Json[]>();
  for (const r of tracks) groups.set(r.commontrack_id, [...(groups.get(r.commontrack_id) ?? []), r]);
  const shared = [...groups.values()].filter((g) => g.length > 1);
  t.ok(shared.length > 50, `${shared.length} recordings have several versions`);
  const problems: string[] = [];
  for (const g of shared) {
    const [original, ...versions] = g;
    if (original.track_id !== original.commontrack_id) problems.push(`${original.commontrack_id}: the original comes first`);
    for (const v of versions) {
      if (v.track_isrc === original.track_isrc || v.artist_id !== original.artist_id) problems.push(`${v.track_id}: isrc or artist`);
      if (v.lyrics?.lyrics_body !== original.lyrics?.lyrics_body) problems.push(`${v.track_id}: lyrics differ`);
      if (!v.track_name.startsWith(original.track_name)) problems.push(`${v.track_id}: name ${v.track_name} vs ${original.track_name}`);
    }
  }
  t.same(problems, []);
  const suffixes = new Set(tracks.map((r) => /\((Live|Acoustic|Radio Edit|Remastered \d{4})\)$/.exec(r.track_name)?.[1].split(' ')[0]).filter(Boolean));
  t.same([...suffixes].sort(), ['Acoustic', 'Live', 'Radio', 'Remastered']);
});

t.test('some tracks are restricted or region-restricted', async (t) => {
  t.ok(tracks.some((r) => r.restricted === 1));
  const regional = tracks.filter((r) => r.region_restriction);
  const worldwide = regional.filter((r) => r.region_restriction.blocked.includes('XW'));
  const someCountries = regional.filter((r) => r.region_restriction.allowed.includes('XW') && r.region_restriction.blocked.length > 0);
  t.ok(someCountries.length / tracks.length > 0.015 && someCountries.length / tracks.length < 0.05);
  t.ok(worldwide.length > 0 && worldwide.length / tracks.length < 0.015);
  t.ok(worldwide.every((r) => r.region_restriction.allowed.length === 0));
});

t.test('genres are one table: the same id always means the same genre', async (t) => {
  const byId = new Map<number, string>();
  for (const r of [...artists, ...albums, ...tracks]) {
    for (const list of [r.primary_genres, r.secondary_genres]) {
      for (const { music_genre: g } of list?.music_genre_list ?? []) {
        const text = JSON.stringify(g);
        if ((byId.get(g.music_genre_id) ?? text) !== text) t.fail(`genre ${g.music_genre_id} differs`);
        byId.set(g.music_genre_id, text);
      }
    }
  }
  t.match(JSON.parse(byId.get(14)!), { music_genre_name: 'Pop', music_genre_parent_id: 34 });
  t.match(JSON.parse(byId.get(20)!), { music_genre_name: 'Alternative', music_genre_parent_id: 34 });
  t.match(JSON.parse(byId.get(21)!), { music_genre_name: 'Rock', music_genre_parent_id: 34 });
});

t.test('artists and albums carry their descriptive fields', async (t) => {
  const date = /^\d{4}-\d{2}-\d{2}$/;
  t.ok(artists.every((a) => date.test(a.begin_date) && date.test(a.end_date) && /^[A-Z]{2}$/.test(a.artist_country)));
  t.ok(artists.some((a) => a.begin_date === '0000-00-00'));
  t.ok(artists.some((a) => /^\d{4}-00-00$/.test(a.begin_date)));
  t.ok(artists.some((a) => a.artist_alias_list?.length > 0));
  const translations = artists.flatMap((a) => a.artist_name_translation_list ?? []).map((x: Json) => x.artist_name_translation);
  t.ok(translations.some((x: Json) => x.language === 'ja' && /^[\u30a0-\u30ff]+$/.test(x.translation)));
  t.ok(translations.some((x: Json) => x.language === 'ru' && /[\u0400-\u04ff]/.test(x.translation)));
  t.ok(albums.every((a) => date.test(a.album_release_date) && a.album_label));
  t.ok(albums.some((a) => a.album_coverart_800x800 === `https://covers.refrain.invalid/${a.album_id}/800.jpg`));
  t.ok(albums.some((a) => a.album_coverart_100x100 === ''));
  t.ok(tracks.every((r) => r.track_length >= 90 && r.track_length <= 420 && date.test(r.first_release_date)));
  t.ok(tracks.some((r) => r.explicit === 1));
});

t.test('some lyrics have a translation, line by line, complete or partial, in another language', async (t) => {
  const translated = withLyrics.filter((r) => r.translations);
  t.ok(Math.abs(translated.length / withLyrics.length - 0.08) < 0.03, `about 8% of lyrics are translated (${translated.length}/${withLyrics.length})`);
  const problems: string[] = [];
  let partial = 0;
  for (const r of translated) {
    const [x] = r.translations;
    const original = r.lyrics.lyrics_body.split('\n');
    const lines = x.lyrics_body.split('\n');
    if (x.language === r.lyrics.lyrics_language) problems.push(`${r.track_id}: translated to its own language`);
    if (lines.length !== original.length) problems.push(`${r.track_id}: ${lines.length} lines for ${original.length}`);
    if (lines.some((l: string, i: number) => l !== '' && original[i] === '')) problems.push(`${r.track_id}: a blank line translated`);
    if (lines.some((l: string, i: number) => l === '' && original[i] !== '')) partial++;
    if ('track_lyrics_translation_status' in r) problems.push(`${r.track_id}: the status is for the import to derive`);
  }
  t.same(problems, []);
  t.ok(partial > 0 && partial < translated.length, 'some translations are partial');
  // The same line translates the same way wherever it is sung.
  const seen = new Map<string, string>();
  let mismatches = 0;
  for (const r of translated) {
    const original = r.lyrics.lyrics_body.split('\n');
    r.translations[0].lyrics_body.split('\n').forEach((l: string, i: number) => {
      const key = `${r.translations[0].language}\u0000${original[i]}`;
      if (l === '') return;
      if (seen.has(key) && seen.get(key) !== l) mismatches++;
      seen.set(key, l);
    });
  }
  t.equal(mismatches, 0);
});
