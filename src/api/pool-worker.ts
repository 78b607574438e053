/**
 * The API's methods that answer from the index (ApiMethod.pool: track.lyrics.fingerprint.post,
 * track.search, artist.search), run whole in an index pool worker (docs/design.md §2). The
 * HTTP thread authenticates the caller, admits the request and hands over its query and body; here
 * the parameters are validated, the engines queried straight (no second hand-off), the tracks
 * presented from this thread's own catalog handle and the body rendered to JSON, which goes back as
 * bytes. What the HTTP thread would otherwise spend on a fingerprint — the hits cloned back, ten
 * track reads, their presentation and the body's serialisation — is spent on a pool thread, of
 * which a node has many.
 *
 * Loaded by piscina in the index workers beside the index's own module (index/service/worker.ts),
 * whose state (engines per generation, the catalog, the cache of lyrics and recordings) it shares.
 */
import type { Principal } from './guard.js';
import type { ApiMethod, PoolContext } from './method.js';
import { METHODS } from './registry.js';
import { PageLinks } from './links.js';
import { invoke, type MethodInput } from './invoke.js';
import { batchErrorLine } from './batch-lines.js';
import { enginesOf } from '../index/service/worker.js';
import { NEEDS_INDEX, type TaskEnvelope } from '../index/service/task.js';
import { RefrainError, type WireError } from '../errors.js';
import { WorkStore } from '../works/store.js';
import type { Catalog } from '../catalog/store.js';

/** What the HTTP thread sends: the method, the request's input and what it knows of the caller. */
export interface PoolCall {
  method: string;
  input: MethodInput;
  /** The caller as the guard found it (its plan, country and key id are what methods read). */
  caller: Principal;
  country: string;
  now: number;
  /** The server's base URL (share and edit pages). */
  baseUrl: string;
  maxFingerprintChars: number;
  /** A batch's texts (ApiMethod.input `ndjson`): each is run as the method's `data.text`, answered by its own line. */
  lines?: BatchText[];
}

/** One text of a batch, as its line gave it. */
export interface BatchText {
  id: string | number;
  text: string;
}

/** The answer: the envelope's extra header fields, extra HTTP headers, and the body as UTF-8 JSON. */
export interface PoolAnswer {
  header: Record<string, unknown>;
  headers: Record<string, string>;
  body: Uint8Array;
  /** A batch's texts answered 503 because the task's deadline passed (counted as the single method's are). */
  late?: number;
}

const encoder = new TextEncoder();
let works: { catalog: Catalog; store: WorkStore } | undefined;
let links: PageLinks | undefined;

/** A batch's lines, each `{"id", "status_code", "hint"?, "track_list"}` and a newline: what the method answers for its text. */
async function screenLines(method: ApiMethod, ctx: PoolContext, input: MethodInput, lines: BatchText[]): Promise<{ out: string; late: number }> {
  let out = '';
  let late = 0;
  for (const { id, text } of lines) {
    // Past the deadline the texts left are not started: they are answered 503, to be sent again.
    if (late > 0) {
      late++;
      out += batchErrorLine(id, LATE);
      continue;
    }
    try {
      const body = (await invoke(method, ctx, { query: input.query, data: { text } })) as { track_list: unknown[] };
      out += `${JSON.stringify({ id, status_code: 200, track_list: body.track_list })}\n`;
    } catch (e) {
      if (!(e instanceof RefrainError)) throw e;
      if (e.code === 'deadline') late++;
      out += batchErrorLine(id, e.code === 'deadline' ? LATE : e);
    }
  }
  return { out, late };
}

/** What a batch's text gets when its task's deadline passed before it was screened. */
const LATE = new RefrainError('busy', 'system busy: the texts sent with this one took its task past the deadline; retry in a moment');

export default async function answer(envelope: TaskEnvelope): Promise<PoolAnswer | WireError | typeof NEEDS_INDEX> {
  try {
    const state = enginesOf(envelope);
    if (!state) return NEEDS_INDEX;
    const { task, deadline } = envelope;
    // Sent as the index is warmed (IndexService preload): this module is loaded now, not on a client's request.
    if (task.op === 'warm') return { header: {}, headers: {}, body: new Uint8Array(0) };
    if (task.op !== 'call') throw new RefrainError('internal', `the API's pool module got a ${task.op} task`);
    const call = task.payload as PoolCall;
    const method = METHODS.get(call.method);
    if (!method?.pool) throw new RefrainError('internal', `${call.method} does not answer in the index pool`);
    const { engines, catalog } = state;
    if (works?.catalog !== catalog) works = { catalog, store: new WorkStore(catalog) };
    if (links?.baseUrl !== call.baseUrl) links = new PageLinks(call.baseUrl);
    const ctx: PoolContext = {
      catalog,
      caller: call.caller,
      works: works.store,
      country: call.country,
      links,
      index: {
        fingerprint: (text, size) => engines.fingerprint.search(text, size, deadline),
        searchTracks: (query) => engines.text.tracks(query, deadline),
        searchArtists: (query) => engines.text.artists(query, deadline),
      },
      now: call.now,
      options: { maxFingerprintChars: call.maxFingerprintChars },
      header: {},
      headers: {},
    };
    if (call.lines) {
      const { out, late } = await screenLines(method, ctx, call.input, call.lines);
      return { header: {}, headers: {}, body: encoder.encode(out), late };
    }
    const body = await invoke(method, ctx, call.input);
    return { header: ctx.header, headers: ctx.headers, body: encoder.encode(JSON.stringify(body)) };
  } catch (e) {
    if (e instanceof RefrainError) return e.toWire();
    throw e;
  }
}
