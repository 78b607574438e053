/** URL path segment of a readable slug ("My Song (Live)" → "My-Song-Live"). */
export function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || '-'
  );
}

/** Path of a track's share page: `/lyrics/<track_id>/<Artist-Slug>/<Track-Slug>`. */
export function sharePath(t: { track_id: number; artist_name: string; track_name: string }): string {
  return `/lyrics/${t.track_id}/${encodeURIComponent(slug(t.artist_name))}/${encodeURIComponent(slug(t.track_name))}`;
}

/** Path of an artist's page. */
export function artistPath(a: { artist_id: number; artist_name: string }): string {
  return `/artist/${a.artist_id}/${encodeURIComponent(slug(a.artist_name))}`;
}
