/** Every API method Refrain serves, by name (the path segment after /ws/1.1/). */
import type { ApiMethod } from './method.js';
import albumGet from './methods/album.get.js';
import albumTracksGet from './methods/album.tracks.get.js';
import artistAlbumsGet from './methods/artist.albums.get.js';
import artistGet from './methods/artist.get.js';
import chartArtistsGet from './methods/chart.artists.get.js';
import chartTracksGet from './methods/chart.tracks.get.js';
import trackGet from './methods/track.get.js';
import trackLyricsAnalysisGet from './methods/track.lyrics.analysis.get.js';
import trackLyricsGet from './methods/track.lyrics.get.js';
import trackLyricslensGet from './methods/track.lyricslens.get.js';
import trackRichsyncGet from './methods/track.richsync.get.js';
import trackSnippetGet from './methods/track.snippet.get.js';
import trackSubtitleGet from './methods/track.subtitle.get.js';
import trackSearch from './methods/track.search.js';
import artistSearch from './methods/artist.search.js';
import matcherTrackGet from './methods/matcher.track.get.js';
import matcherLyricsGet from './methods/matcher.lyrics.get.js';
import matcherSubtitleGet from './methods/matcher.subtitle.get.js';
import trackLyricsFingerprintPost from './methods/track.lyrics.fingerprint.post.js';
import trackLyricsFingerprintBatchPost from './methods/track.lyrics.fingerprint.batch.post.js';
import tracksDumpGet from './methods/tracks.dump.get.js';
import workPost from './methods/work.post.js';
import musicGenresGet from './methods/music.genres.get.js';
import languagesGet from './methods/languages.get.js';
import artistRelatedGet from './methods/artist.related.get.js';
import trackLyricsTranslationGet from './methods/track.lyrics.translation.get.js';
import trackSubtitleTranslationGet from './methods/track.subtitle.translation.get.js';
import trackLyricsPost from './methods/track.lyrics.post.js';
import trackLyricsFeedbackPost from './methods/track.lyrics.feedback.post.js';

const ALL: ApiMethod[] = [
  trackGet, trackLyricsGet, trackSnippetGet, trackSubtitleGet, trackRichsyncGet, trackLyricsAnalysisGet, trackLyricslensGet,
  artistGet, artistAlbumsGet, albumGet, albumTracksGet, chartTracksGet, chartArtistsGet,
  trackSearch, artistSearch, matcherTrackGet, matcherLyricsGet, matcherSubtitleGet, trackLyricsFingerprintPost, trackLyricsFingerprintBatchPost, tracksDumpGet,
  workPost, musicGenresGet, languagesGet, artistRelatedGet, trackLyricsTranslationGet, trackSubtitleTranslationGet,
  trackLyricsPost, trackLyricsFeedbackPost,
] as unknown as ApiMethod[];

export const METHODS: ReadonlyMap<string, ApiMethod> = new Map(ALL.map((m) => [m.name, m]));
