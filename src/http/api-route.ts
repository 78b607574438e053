/**
 * The /ws/1.1/<method> route: authenticate, admit (quota, rate), validate parameters, run the
 * method, write the envelope. Everything needed from uWS's `req` is read up front, because `req` is
 * only valid until the handler returns or awaits (docs/design.md §10). Synchronous methods answer inside
 * the handler (uWS corks it); asynchronous ones and request bodies register `onAborted` first and
 * write inside `res.cork()`.
 */
import type { Logger } from 'pino';
import { pathAndQuery, type HttpRequest, type HttpResponse } from './uws.js';
import type { ApiContext, ApiMethod, MethodOptions } from '../api/method.js';
import type { Catalog } from '../catalog/store.js';
import type { IndexService } from '../index/service/pool.js';
import { requireScope, type Guard, type Principal } from '../auth/guard.js';
import type { Usage } from '../auth/usage.js';
import type { Links } from '../api/links.js';
import type { Metrics } from './metrics.js';
import { RefrainError } from '../errors.js';
import { countryParam, paramHint, parseQuery } from './params.js';
import { errorReply, outputFormat, writePreflight, writeReply, type OutputFormat, type Reply, type ResponseOptions } from './respond.js';
import { readBody } from './body.js';
import { redactQuery } from '../log.js';
import type { ResponseCache } from './response-cache.js';

export interface ApiRouteDeps {
  catalog: Catalog;
  index: IndexService;
  guard: Guard;
  usage: Usage;
  links: Links;
  metrics: Metrics;
  logger: Logger;
  methods: ReadonlyMap<string, ApiMethod>;
  response: ResponseOptions;
  methodOptions: MethodOptions;
  maxBodyBytes: number;
  accessLog: boolean;
  clock: () => number;
  cache: ResponseCache;
  /** Serves GET /ws/1.1/openapi.json (public: it is documentation). */
  openapi: () => string;
}

interface Incoming {
  verb: string;
  name: string;
  query: string;
  authorization: string;
  contentType: string;
  /** Declared Content-Length (0 when absent). */
  contentLength: number;
  origin: string;
}

const PREFIX = '/ws/1.1/';
const JSON_OUT: OutputFormat = { format: 'json', callback: '' };

export function apiRoute(deps: ApiRouteDeps): (res: HttpResponse, req: HttpRequest) => void {
  // The OpenAPI document as bytes, encoded once: it is large, and every request for it would
  // otherwise encode it again.
  let openapi: { text: string; bytes: Buffer } | undefined;
  const openapiBytes = (): Buffer => {
    const text = deps.openapi();
    if (openapi?.text !== text) openapi = { text, bytes: Buffer.from(text) };
    return openapi.bytes;
  };
  return (res, req) => {
    const started = performance.now();
    const [path, query] = pathAndQuery(req);
    const incoming: Incoming = {
      verb: req.getMethod(),
      name: path.slice(PREFIX.length),
      query,
      authorization: req.getHeader('authorization'),
      contentType: req.getHeader('content-type'),
      contentLength: Number(req.getHeader('content-length')) || 0,
      origin: req.getHeader('origin'),
    };
    if (incoming.verb === 'options') return writePreflight(res, deps.response.corsOrigin);
    if (incoming.name === 'openapi.json' && (incoming.verb === 'get' || incoming.verb === 'head')) {
      res.writeHeader('content-type', 'application/json; charset=utf-8');
      res.writeHeader('access-control-allow-origin', deps.response.corsOrigin);
      return void res.end(openapiBytes());
    }
    handle(deps, res, incoming, started);
  };
}

function handle(deps: ApiRouteDeps, res: HttpResponse, incoming: Incoming, started: number): void {
  const query = parseQuery(incoming.query);
  const call: Call = { deps, res, incoming, query, out: JSON_OUT, keyId: '', extraHeader: {}, started };
  try {
    call.out = outputFormat(query);
    const caller = deps.guard.authenticate(query.apikey, incoming.authorization);
    if (!(caller instanceof Promise)) return proceed(call, caller);
    // A token seen for the first time: its signature is checked off this tick. uWS wants the body
    // handlers registered now, so a POST starts reading its body while the token is verified.
    const aborted = { value: false };
    res.onAborted(() => (aborted.value = true));
    const body = incoming.verb === 'post' ? readBody(res, deps.maxBodyBytes) : undefined;
    body?.catch(() => undefined); // a failed read is reported by runWithBody, if the caller gets that far
    caller
      .then(
        (principal) => {
          if (!aborted.value) res.cork(() => proceed(call, principal, { aborted, body }));
        },
        (e: unknown) => {
          if (!aborted.value) res.cork(() => finish(call, failure(call, e)));
        },
      )
      .catch((err: unknown) => deps.logger.warn({ err }, 'writing a response failed'));
  } catch (e) {
    finish(call, failure(call, e));
  }
}

/** One API request on its way through handle → proceed → finish. */
interface Call {
  deps: ApiRouteDeps;
  res: HttpResponse;
  incoming: Incoming;
  query: Record<string, string>;
  out: OutputFormat;
  keyId: string;
  /** Header fields a method set before failing still go out (track.subtitle.get's `instrumental` on 404). */
  extraHeader: Record<string, unknown>;
  started: number;
}

/** A POST whose body is already being read (the caller was authenticated asynchronously). */
interface BodyInFlight {
  aborted: { value: boolean };
  body?: Promise<Buffer>;
}

function finish(call: Call, reply: Reply): void {
  const { deps, incoming, started } = call;
  writeReply(call.res, deps.response, reply, call.out, { started, origin: incoming.origin, head: incoming.verb === 'head' });
  const seconds = (performance.now() - started) / 1000;
  const label = deps.methods.has(incoming.name) ? incoming.name : 'unknown';
  deps.metrics.observe(label, reply.status, seconds);
  if (deps.accessLog) {
    deps.logger.info({ method: label, verb: incoming.verb, status: reply.status, ms: seconds * 1000, key_id: call.keyId, query: redactQuery(incoming.query) }, 'request');
  }
}

/** An authenticated request: method, verb, plan and scope checks, admission, then the method. */
function proceed(call: Call, key: Principal, inFlight?: BodyInFlight): void {
  const { deps, res, incoming, query } = call;
  try {
    call.keyId = key.key_id;
    const method = deps.methods.get(incoming.name);
    if (!method) throw new RefrainError(405, `unknown API method ${incoming.name || '(none)'}`);
    if (incoming.verb !== method.http.toLowerCase() && !(incoming.verb === 'head' && method.http === 'GET')) {
      throw new RefrainError(405, `${method.name} takes ${method.http}`, { Allow: method.http });
    }
    requireScope(key, method.scope ?? 'catalog:read');
    if (method.plans && !method.plans.includes(key.plan)) {
      throw new RefrainError(403, `Forbidden: ${method.name} needs the ${method.plans.join(' or ')} plan (this caller has the ${key.plan} plan)`);
    }
    const now = deps.clock();
    deps.usage.admit(key, now);
    const ctx: ApiContext = {
      catalog: deps.catalog,
      key,
      country: key.country || callerCountry(query.country),
      links: deps.links,
      index: deps.index,
      now,
      options: deps.methodOptions,
      header: (call.extraHeader = {}),
      headers: {},
    };
    if (method.http === 'POST') return runWithBody(call, method, ctx, inFlight);
    const reply = method.cache && deps.cache.enabled ? runCached(deps, method, ctx, query) : run(method, ctx, query);
    if (reply instanceof Promise) return finishLater(call, reply);
    finish(call, reply);
  } catch (e) {
    finish(call, failure(call, e));
  }
}

/** The `country` parameter (any method): a valid ISO 3166-1 alpha-2 code, or 400. */
function callerCountry(value: string | undefined): string {
  if (value === undefined) return '';
  const parsed = countryParam.safeParse(value);
  if (!parsed.success) throw new RefrainError(400, `country ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** The query without the caller's credentials and output format: what an answer depends on. */
function canonical(query: Record<string, string>): string {
  let out = '';
  for (const k in query) {
    if (k !== 'apikey' && k !== 'format' && k !== 'callback') out += `${k}=${query[k]}&`;
  }
  return out;
}

/**
 * An asynchronous method's reply (pool-backed: search, matcher, fingerprint): `req` is gone by
 * now, so the abort is watched and the answer is written corked (docs/design.md §10).
 */
function finishLater(call: Call, reply: Promise<Reply>): void {
  let aborted = false;
  call.res.onAborted(() => (aborted = true));
  reply
    .catch((e: unknown) => failure(call, e))
    .then((r) => {
      if (!aborted) call.res.cork(() => finish(call, r));
    })
    .catch((err: unknown) => call.deps.logger.warn({ err }, 'writing a response failed'));
}

/** A cacheable method's reply: from the response cache, or run and kept (its 200 or its 404). */
function runCached(deps: ApiRouteDeps, method: ApiMethod, ctx: ApiContext, query: Record<string, string>): Reply | Promise<Reply> {
  const scope = method.cache === 'key' ? ctx.key.key_id : `${ctx.key.plan}:${ctx.country}`;
  const cacheKey = `${method.name}|${scope}|${canonical(query)}`;
  const hit = deps.cache.get(cacheKey, ctx.now);
  if (hit) return hit;
  const keep = (reply: Reply): Reply => {
    const cached = { ...reply, bodyBytes: Buffer.from(JSON.stringify(reply.body)), at: ctx.now };
    deps.cache.set(cacheKey, cached);
    return cached;
  };
  const notFound = (e: unknown): Reply => {
    if (!(e instanceof RefrainError && e.status === 404)) throw e;
    return keep({ ...errorReply(e), header: ctx.header });
  };
  let reply: Reply | Promise<Reply>;
  try {
    reply = run(method, ctx, query);
  } catch (e) {
    return notFound(e);
  }
  return reply instanceof Promise ? reply.then(keep, notFound) : keep(reply);
}

function run(method: ApiMethod, ctx: ApiContext, input: Record<string, unknown>): Reply | Promise<Reply> {
  const parsed = method.params.safeParse(input);
  if (!parsed.success) throw new RefrainError(400, paramHint(parsed.error, input));
  const body = method.handle(ctx, parsed.data);
  const reply = (b: object): Reply => ({ status: 200, header: ctx.header, body: b, headers: ctx.headers });
  return body instanceof Promise ? body.then(reply) : reply(body);
}

/** POST methods: read the (capped) body, or take the one already being read, then run the method with `data` from its JSON. */
function runWithBody(call: Call, method: ApiMethod, ctx: ApiContext, inFlight?: BodyInFlight): void {
  const { deps, res, incoming, query } = call;
  // Refused before the body is read (throws to proceed's catch); a body already being read goes on.
  if (!inFlight) method.admitBody?.(ctx, incoming.contentLength);
  const aborted = inFlight?.aborted ?? { value: false };
  if (!inFlight) res.onAborted(() => (aborted.value = true));
  (inFlight?.body ?? readBody(res, deps.maxBodyBytes))
    .then((body) => run(method, ctx, postParams(method, incoming.contentType, body, query)))
    .catch((e: unknown) => failure(call, e))
    .then((reply) => {
      if (!aborted.value) res.cork(() => finish(call, reply));
    })
    // Writing can only fail if the connection went away in between: log it, never crash on it.
    .catch((err: unknown) => deps.logger.warn({ err }, 'writing a response failed'));
}

/** A POST's parameters: the query's and the body's, as the method takes them (ApiMethod.input). */
function postParams(method: ApiMethod, contentType: string, body: Buffer, query: Record<string, string>): Record<string, unknown> {
  const fields = method.input === 'fields';
  if (fields && body.length === 0) return query;
  if (fields && /^application\/x-www-form-urlencoded\b/i.test(contentType)) return { ...query, ...parseQuery(body.toString('utf8')) };
  if (!/^application\/json\b/i.test(contentType)) {
    throw new RefrainError(400, `the body must be JSON (Content-Type: application/json)${fields ? ' or a form (application/x-www-form-urlencoded)' : ''}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new RefrainError(400, 'the body is not valid JSON');
  }
  const data = json && typeof json === 'object' && 'data' in json ? (json as { data: unknown }).data : undefined;
  if (!fields) return { ...query, data };
  if (data === undefined) return query;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new RefrainError(400, 'data must be an object of parameters');
  const out: Record<string, unknown> = { ...query };
  for (const [k, v] of Object.entries(data)) out[k] = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  return out;
}

/** The error reply, with the header fields the method set before failing. */
function failure(call: Call, e: unknown): Reply {
  if (!(e instanceof RefrainError)) call.deps.logger.error({ err: e }, 'unhandled error in API method');
  const reply = errorReply(e);
  Object.assign(reply.header, call.extraHeader);
  return reply;
}
