/**
 * What an API method is: its name, HTTP verb, zod parameter schema (validation, and the OpenAPI
 * document), who may call it, and a handler that returns the envelope's body or throws RefrainError.
 */
import type { z } from 'zod';
import type { Catalog } from '../catalog/store.js';
import type { Plan } from '../auth/keys.js';
import type { Principal } from './guard.js';
import type { ApiScope } from '../oauth/scopes.js';
import type { Links, PageLinks } from './links.js';
import type { IndexFront } from '../index/service/front.js';
import type { IndexQueries } from '../index/service/task.js';
import type { FeedDirectory } from '../feeds/listing.js';
import type { ContributionLimits, ContributionStore } from '../contributions/store.js';
import type { WorkStore } from '../works/store.js';

export interface ApiContext {
  readonly catalog: Catalog;
  /** The caller: an API key, or an OAuth token's client with the token's scopes and subject. */
  readonly caller: Principal;
  /** Works and their credits (work.post; the writers and publishers a track shows). */
  readonly works: WorkStore;
  /** Lyrics contributions waiting for review (track.lyrics.post, track.lyrics.feedback.post). */
  readonly contributions: ContributionStore;
  /** Country whose restrictions apply: the key's, else the `country` parameter, else ''. */
  readonly country: string;
  readonly links: Links;
  /** The search and fingerprint index (pool-backed). */
  readonly index: IndexFront;
  readonly now: number;
  readonly options: MethodOptions;
  /** Extra envelope header fields (`available`, `instrumental`, …). */
  readonly header: Record<string, unknown>;
  /** Extra HTTP response headers (`Deprecation`, `Sunset`, …). */
  readonly headers: Record<string, string>;
}

/**
 * What a method answering in an index worker (`pool`) may read: the catalog, works and pages of its
 * own thread, the caller, the index's engines straight, and no store it could write.
 */
export interface PoolContext extends Pick<ApiContext, 'catalog' | 'caller' | 'works' | 'country' | 'now' | 'header' | 'headers'> {
  readonly links: PageLinks;
  readonly index: IndexQueries;
  readonly options: Pick<MethodOptions, 'maxFingerprintChars'>;
}

/** Server options the methods read. */
export interface MethodOptions {
  /** YYYY-MM-DD from which track.lyricslens.get answers 410. */
  lyricslensSunset: string;
  /** Longest text track.lyrics.fingerprint.post accepts, in characters. */
  maxFingerprintChars: number;
  /** The feeds tracks.dump.get lists (src/feeds/). */
  feeds: FeedDirectory;
  /** How many contributions may wait for review (src/contributions/). */
  contributions: ContributionLimits;
}

export interface ApiMethod<P extends z.ZodType = z.ZodType> {
  name: string;
  http: 'GET' | 'POST';
  summary: string;
  params: P;
  /** Plans allowed to call the method (403 otherwise); all when absent. */
  plans?: readonly Plan[];
  /** The scope an OAuth access token needs for the method (docs/oauth.md); `catalog:read` when absent. */
  scope?: ApiScope;
  /** Schema of `message.body` on success, for the OpenAPI document. */
  body: z.ZodType;
  /** Extra statuses the method can answer, for the OpenAPI document. */
  statuses?: readonly number[];
  deprecated?: boolean;
  /**
   * Whether answers may be cached (src/api/response-cache.ts): `shared` when an answer depends only
   * on the parameters, the plan and the country; `key` when it names the key (tracking URLs).
   */
  cache?: 'shared' | 'key';
  /**
   * POST methods: called before the body is read, with its declared length in bytes; throws (503)
   * when the work the body would bring cannot be admitted now, so a refusal costs no body read.
   */
  admitBody?(ctx: ApiContext, bytes: number): void;
  /**
   * POST methods: where the parameters come from. `data` (the default): the query's, plus the JSON
   * body's `data` as the `data` parameter. `fields`: the public API's way, each parameter from the
   * query, a form body (application/x-www-form-urlencoded) or the JSON body's `data` object alike
   * (the body's win; a JSON number or boolean reads as a query value would), and the body may be empty.
   * `ndjson`: a batch, one `{"id", "text"}` per line (src/api/batch.ts), answered as a stream of
   * NDJSON lines; `handle` screens one line's text (as `data.text`).
   */
  input?: 'data' | 'fields' | 'ndjson';
  /**
   * Methods that answer from the index run whole in an index pool worker (src/api/pool-worker.ts):
   * the main thread authenticates, admits and writes; the worker validates, queries its engines,
   * presents and renders the body. The value is the queue's kind of task. Such a method's `handle`
   * reads only a PoolContext.
   */
  pool?: 'fingerprint' | 'tracks' | 'artists';
  /** The body, or a promise of it for methods that ask the index pool. */
  handle(ctx: HandlerContext, params: z.output<P>): object | Promise<object>;
}

/**
 * What `handle` is given: an ApiContext on the HTTP thread, a PoolContext in an index worker (pool
 * methods). Typed as both, so a handler names the one it reads (`ctx: PoolContext` for a pool method).
 */
export type HandlerContext = ApiContext & PoolContext;

export const defineMethod = <P extends z.ZodType>(method: ApiMethod<P>): ApiMethod<P> => method;
