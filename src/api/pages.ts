/**
 * Refrain's own non-API endpoints that responses link to:
 * - `/t1.0/{js|img|html}/<token>`: the tracking URLs; a request records a hit for the key and track,
 *   unless the token expired or the same address sent it within the replay window.
 * - `/lyrics/<track_id>/<artist>/<track>`: the track's share page (metadata and snippet, no lyrics:
 *   it is public), and `…/edit`: the track's catalog line in the import format, for an operator to
 *   correct and re-import with `refrain import`.
 * - `/artist/<artist_id>/<name>`: the artist's page (name, country, its most popular tracks linking
 *   to their pages), and `…/edit`: the artist's catalog line.
 */
import type { Catalog } from '../catalog/store.js';
import type { Links } from './links.js';
import type { HitRecorder } from '../auth/hits.js';
import type { Incoming, Outgoing } from '../http/route.js';
import { escapeXml as esc } from '../util/xml.js';
import { artistLine } from '../feeds/lines.js';

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

function send(status: number, type: string, body: string | Buffer, tracking?: 'counted' | 'repeat'): Outgoing {
  const headers: Record<string, string> = { 'content-type': type };
  if (tracking) headers['x-refrain-tracking'] = tracking;
  headers['cache-control'] = 'no-store';
  return { status, headers, body };
}

/**
 * A tracking URL: 404 for a token that is malformed or forged, 410 for an expired one (not counted),
 * else 200 with the pixel, script or page; `x-refrain-tracking` says whether the hit was `counted`
 * or a `repeat` of the same token from the same address within the replay window (not counted).
 * HEAD answers the same status and counts nothing.
 */
export function trackingPage(links: Links, hits: HitRecorder) {
  return (incoming: Incoming): Outgoing | Promise<Outgoing> => {
    const [kind, token] = incoming.params;
    const hit = links.verify(token);
    if (!hit || (kind !== 'js' && kind !== 'img' && kind !== 'html')) return send(404, 'text/plain', 'unknown tracking token\n');
    if (!links.live(hit)) {
      return send(410, 'text/plain', `tracking token expired at ${new Date(hit.expires).toISOString()}: not counted (tracking URLs last ${links.ttlText()} from the answer that gave them)\n`);
    }
    // HEAD (link checkers, prefetchers) shows nothing to anyone: answered like GET, never counted.
    const head = incoming.method === 'head';
    const answer = (counted?: boolean): Outgoing => {
      const outcome = counted === undefined ? undefined : counted ? 'counted' : 'repeat';
      if (kind === 'img') return send(200, 'image/gif', PIXEL, outcome);
      if (kind === 'js') return send(200, 'application/javascript; charset=utf-8', '/* recorded */\n', outcome);
      return send(200, 'text/html; charset=utf-8', '<!doctype html><title>recorded</title>\n', outcome);
    };
    if (head) return answer();
    const counted = hits.record(hit, incoming.ip, token);
    return counted instanceof Promise ? counted.then(answer) : answer(counted);
  };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}pre{background:#f4f4f4;padding:1em;overflow:auto}</style>
${body}</html>`;
}

export function sharePage(catalog: Catalog) {
  return (incoming: Incoming): Outgoing => {
    // Digits only: Number() would read `0x1`, `1e0` or ` 1` as track 1.
    const raw = incoming.params[0];
    const edit = incoming.path.endsWith('/edit');
    const t = /^\d{1,10}$/.test(raw) ? catalog.getTrack(Number(raw)) : undefined;
    if (!t) return send(404, 'text/html; charset=utf-8', page('Not found', '<h1>No such track</h1>'));
    const title = `${t.track_name} — ${t.artist_name}`;
    if (edit) {
      const { hash: _h, has_lyrics: _l, has_subtitles: _s, has_richsync: _r, has_lyrics_analysis: _a, has_snippet: _n, share_path: _p, ...fields } = t;
      const line = JSON.stringify({ type: 'track', ...fields, album_id: fields.album_id || undefined });
      return send(200, 'text/html; charset=utf-8', page(`Edit ${title}`, `<h1>Edit ${esc(title)}</h1>
<p>This catalog is managed by its operator. To correct this track, edit its line below (add its
<code>lyrics</code>, <code>subtitle</code>, … objects: a track line is the whole track) and run
<code>refrain import FILE</code>.</p><pre>${esc(line)}</pre>`));
    }
    const snippet = catalog.getContent('snippets', t.track_id);
    const cover = t.album_coverart_350x350 || t.album_coverart_100x100;
    return send(200, 'text/html; charset=utf-8', page(title, `<h1>${esc(t.track_name)}</h1>
<p>by ${esc(t.artist_name)}${t.album_name ? ` · ${esc(t.album_name)}` : ''}</p>
${cover ? `<img src="${esc(cover)}" alt="" width="175">` : ''}
${snippet && !snippet.restricted ? `<blockquote>${esc(snippet.snippet_body)}</blockquote>` : ''}`));
  };
}

/** Tracks an artist page lists, most popular first. */
const ARTIST_PAGE_TRACKS = 20;

export function artistPage(catalog: Catalog, links: Links) {
  return (incoming: Incoming): Outgoing => {
    const raw = incoming.params[0];
    const a = /^\d{1,10}$/.test(raw) ? catalog.getArtist(Number(raw)) : undefined;
    if (!a) return send(404, 'text/html; charset=utf-8', page('Not found', '<h1>No such artist</h1>'));
    if (incoming.path.endsWith('/edit')) {
      return send(200, 'text/html; charset=utf-8', page(`Edit ${a.artist_name}`, `<h1>Edit ${esc(a.artist_name)}</h1>
<p>This catalog is managed by its operator. To correct this artist, edit its line below and run
<code>refrain import FILE</code>.</p><pre>${esc(artistLine(a))}</pre>`));
    }
    const tracks = catalog.tracksOf('artist_tracks', a.artist_id, 2000);
    const list = tracks.slice(0, ARTIST_PAGE_TRACKS).map((t) => `<li><a href="${esc(links.sharePage(t))}">${esc(t.track_name)}</a></li>`).join('\n');
    return send(200, 'text/html; charset=utf-8', page(a.artist_name, `<h1>${esc(a.artist_name)}</h1>
${a.artist_country ? `<p>${esc(a.artist_country)}</p>` : ''}${list ? `<ol>\n${list}\n</ol>` : ''}`));
  };
}
