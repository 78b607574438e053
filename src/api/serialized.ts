/**
 * Bodies that arrive at the route already serialised. A handler may return a `SerializedBody`: the
 * route answers with its bytes as they are (Reply.bodyBytes, as for bodies rendered in an index
 * worker; XML output parses them back). `serializeBody` makes one from a body whose values may be
 * `JsonFragment`s, JSON written elsewhere and spliced in as bytes: a richsync's ~14 KB body,
 * rendered from its stored form straight to an escaped JSON string, skips being made as text and
 * escaped again by JSON.stringify (docs/benchmarks.md, "After: synced lyrics as timings, one
 * index generation").
 */

export class SerializedBody {
  constructor(readonly bytes: Buffer) {}
}

/** A value given as its JSON (UTF-8 bytes). Serialised any other way, it is parsed back: slower, still right. */
export class JsonFragment {
  constructor(readonly json: Buffer) {}

  toJSON(): unknown {
    if (splicing) {
      splicing.push(this);
      return MARK;
    }
    return JSON.parse(this.json.toString('utf8')) as unknown;
  }
}

/** What a fragment serialises as while serializeBody runs: a string no answer holds (NUL bytes escape as \u0000). */
const MARK = '\u0000json-fragment\u0000';
const MARK_JSON = JSON.stringify(MARK);
/** The fragments met by the JSON.stringify serializeBody runs, in order (undefined outside it). */
let splicing: JsonFragment[] | undefined;

/** A body as JSON bytes, its fragments spliced in. */
export function serializeBody(body: object): SerializedBody {
  const found: JsonFragment[] = [];
  let text: string;
  splicing = found;
  try {
    text = JSON.stringify(body);
  } finally {
    splicing = undefined;
  }
  const parts = text.split(MARK_JSON);
  // A string of the body equal to the mark would cut it wrong: then serialise it plainly.
  if (parts.length !== found.length + 1) return new SerializedBody(Buffer.from(JSON.stringify(body)));
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    chunks.push(Buffer.from(part));
    if (i < found.length) chunks.push(found[i].json);
  });
  return new SerializedBody(Buffer.concat(chunks));
}
