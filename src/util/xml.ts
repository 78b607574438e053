/**
 * XML output (`format=xml`), shaped as the public API writes it:
 * `<message><header>…</header><body>…</body></message>`; an array of single-key objects such as
 * `track_list: [{track:{…}}]` becomes `<track_list><track>…</track>…</track_list>`, and an array of
 * plain values repeats an `<item>` element. Hand-written because that mapping is the public API's own
 * and no XML builder produces it without per-field configuration; escaping is the only subtle part.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// Characters XML 1.0 cannot carry at all, even escaped.
// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string): string {
  return text.replace(INVALID, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function element(name: string, value: unknown): string {
  if (value === null || value === undefined) return `<${name}/>`;
  if (Array.isArray(value)) return `<${name}>${value.map(arrayItem).join('')}</${name}>`;
  if (typeof value === 'object') return `<${name}>${children(value as Record<string, unknown>)}</${name}>`;
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

function arrayItem(item: unknown): string {
  if (item && typeof item === 'object' && !Array.isArray(item)) {
    const keys = Object.keys(item);
    if (keys.length === 1) return element(keys[0], (item as Record<string, unknown>)[keys[0]]);
  }
  return element('item', item);
}

function children(obj: Record<string, unknown>): string {
  let out = '';
  for (const key of Object.keys(obj)) {
    const name = /^[A-Za-z_][\w.-]*$/.test(key) ? key : `_${key.replace(/[^\w.-]/g, '_')}`;
    out += element(name, obj[key]);
  }
  return out;
}

/** The envelope as an XML document. */
export function toXml(envelope: { message: { header: object; body: unknown } }): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n${element('message', envelope.message)}`;
}
