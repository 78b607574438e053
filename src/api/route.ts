/**
 * The /ws/1.1/<method> route: authenticate, admit (quota, rate), validate parameters, run the
 * method, answer with the envelope. It runs on the route layer (src/http/route.ts), which reads the
 * request up front, watches for aborts and writes later answers corked: here a request is only
 * values in and an answer out, synchronous or a promise.
 */
import type { Logger } from 'pino';
import type { HttpRequest, HttpResponse } from '../http/uws.js';
import { route, type Incoming, type Outgoing } from '../http/route.js';
import type { ApiContext, ApiMethod, MethodOptions } from './method.js';
import type { Catalog } from '../catalog/store.js';
import type { WorkStore } from '../works/store.js';
import type { ContributionStore } from '../contributions/store.js';
import type { IndexFront } from '../index/service/front.js';
import { requireScope, type Guard, type Principal } from './guard.js';
import type { Usage } from '../auth/usage.js';
import type { Links } from './links.js';
import type { Metrics } from '../http/metrics.js';
import { isError, RefrainError } from '../errors.js';
import { countryParam, paramHint, parseQuery } from './params.js';
import { parseBatch, streamBatch, type BatchRun } from './batch.js';
import { invoke, type MethodInput } from './invoke.js';
import type { PoolAnswer, PoolCall } from './pool-worker.js';
import { siblingModule } from '../util/one-shot-worker.js';
import { errorReply, outputFormat, preflight, replyOutgoing, type OutputFormat, type Reply, type ResponseOptions } from './respond.js';
import { SerializedBody } from './serialized.js';
import { redactQuery } from '../log.js';
import type { ResponseCache } from './response-cache.js';

export interface ApiRouteDeps {
  catalog: Catalog;
  works: WorkStore;
  contributions: ContributionStore;
  index: IndexFront;
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
  /** Served at GET /ws/1.1/openapi.json (public: it is documentation). */
  openapi: string;
}

const PREFIX = '/ws/1.1/';
/** The module the index workers run the pool methods with (ApiMethod.pool); they load it as they start. */
export const POOL_WORKER = siblingModule(import.meta.url, 'pool-worker');
const JSON_OUT: OutputFormat = { format: 'json', callback: '' };

export function apiRoute(deps: ApiRouteDeps): (res: HttpResponse, req: HttpRequest) => void {
  // The OpenAPI document as bytes, encoded once: it is large, and every request for it would
  // otherwise encode it again.
  const openapi = Buffer.from(deps.openapi);
  const openapiHeaders = { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': deps.response.corsOrigin };
  return route(
    (incoming) => {
      const name = incoming.path.slice(PREFIX.length);
      if (incoming.method === 'options') return preflight(deps.response.corsOrigin);
      if (name === 'openapi.json' && (incoming.method === 'get' || incoming.method === 'head')) {
        return { status: 200, headers: openapiHeaders, body: openapi };
      }
      return handle(deps, incoming, name);
    },
    // handle() answers every error itself; this is for a failure in writing the answer's envelope.
    { logger: deps.logger, fail: (e) => unanswered(deps, e) },
  );
}

function handle(deps: ApiRouteDeps, incoming: Incoming, name: string): Outgoing | Promise<Outgoing> {
  const query = parseQuery(incoming.query);
  const call: Call = { deps, incoming, name, query, out: JSON_OUT, keyId: '', extraHeader: {} };
  try {
    call.out = outputFormat(query);
    const caller = deps.guard.authenticate(query.apikey, incoming.authorization);
    if (!(caller instanceof Promise)) return proceed(call, caller);
    // A token seen for the first time: its signature is checked off this tick. uWS wants the body
    // read from now, so a POST starts reading its body while the token is verified.
    const body = incoming.method === 'post' ? incoming.readBody(deps.maxBodyBytes) : undefined;
    body?.catch(() => undefined); // a failed read is reported by runWithBody, if the caller gets that far
    return caller.then(
      (principal) => proceed(call, principal, body),
      (e: unknown) => finish(call, failure(call, e)),
    );
  } catch (e) {
    return finish(call, failure(call, e));
  }
}

/** One API request on its way through handle → proceed → finish. */
interface Call {
  deps: ApiRouteDeps;
  incoming: Incoming;
  /** The API method named by the path ('' for none). */
  name: string;
  query: Record<string, string>;
  out: OutputFormat;
  keyId: string;
  /** Header fields a method set before failing still go out (track.subtitle.get's `instrumental` on 404). */
  extraHeader: Record<string, unknown>;
  /** The caller's requests left today, when its key has a quota (x-refrain-quota-remaining). */
  quotaRemaining?: number;
}

/** The answer to a reply, counted in the metrics and the access log. */
function finish(call: Call, reply: Reply): Outgoing {
  const { deps, incoming } = call;
  const out = replyOutgoing(deps.response, reply, call.out, { started: incoming.started, origin: incoming.origin, quotaRemaining: call.quotaRemaining });
  const seconds = (performance.now() - incoming.started) / 1000;
  const label = deps.methods.has(call.name) ? call.name : 'unknown';
  deps.metrics.observe(label, reply.status, seconds);
  if (deps.accessLog) {
    deps.logger.info({ method: label, verb: incoming.method, status: reply.status, ms: seconds * 1000, key_id: call.keyId, query: redactQuery(incoming.query) }, 'request');
  }
  return out;
}

/** The last resort: an answer that could not be made (never expected; logged). */
function unanswered(deps: ApiRouteDeps, e: unknown): Outgoing {
  deps.logger.error({ err: e }, 'answering an API request failed');
  const headers = { 'content-type': 'application/json; charset=utf-8', 'x-refrain-header-status': '500' };
  return { status: deps.response.httpStatus === 'mirror' ? 500 : 200, headers, body: '{"message":{"header":{"status_code":500,"hint":"internal error"},"body":[]}}' };
}

/** An authenticated request: method, verb, plan and scope checks, admission, then the method. */
function proceed(call: Call, caller: Principal, bodyInFlight?: Promise<Buffer>): Outgoing | Promise<Outgoing> {
  const { deps, incoming, query } = call;
  try {
    call.keyId = caller.key_id;
    const method = deps.methods.get(call.name);
    if (!method) throw new RefrainError('not_allowed', `unknown API method ${call.name || '(none)'}`);
    if (incoming.method !== method.http.toLowerCase() && !(incoming.method === 'head' && method.http === 'GET')) {
      throw new RefrainError('not_allowed', `${method.name} takes ${method.http}`, { Allow: method.http });
    }
    requireScope(caller, method.scope ?? 'catalog:read');
    if (method.plans && !method.plans.includes(caller.plan)) {
      throw new RefrainError('forbidden', `Forbidden: ${method.name} needs the ${method.plans.join(' or ')} plan (this caller has the ${caller.plan} plan)`);
    }
    const now = deps.clock();
    call.quotaRemaining = deps.usage.admit(caller, now);
    const ctx: ApiContext = {
      catalog: deps.catalog,
      caller,
      works: deps.works,
      contributions: deps.contributions,
      country: caller.country || callerCountry(query.country),
      links: deps.links,
      index: deps.index,
      now,
      options: deps.methodOptions,
      header: (call.extraHeader = {}),
      headers: {},
    };
    if (method.input === 'ndjson') return runBatch(call, method, ctx, bodyInFlight);
    if (method.http === 'POST') return runWithBody(call, method, ctx, bodyInFlight);
    const reply = method.cache && deps.cache.enabled ? runCached(deps, method, ctx, query) : run(deps, method, ctx, { query });
    if (reply instanceof Promise) return reply.catch((e: unknown) => failure(call, e)).then((r) => finish(call, r));
    return finish(call, reply);
  } catch (e) {
    return finish(call, failure(call, e));
  }
}

/** The `country` parameter (any method): a valid ISO 3166-1 alpha-2 code, or 400. */
function callerCountry(value: string | undefined): string {
  if (value === undefined) return '';
  const parsed = countryParam.safeParse(value);
  if (!parsed.success) throw new RefrainError('bad_request', `country ${parsed.error.issues[0].message}`);
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

/** A cacheable method's reply: from the response cache, or run and kept (its 200 or its 404). */
function runCached(deps: ApiRouteDeps, method: ApiMethod, ctx: ApiContext, query: Record<string, string>): Reply | Promise<Reply> {
  const scope = method.cache === 'key' ? ctx.caller.key_id : `${ctx.caller.plan}:${ctx.country}`;
  const cacheKey = `${method.name}|${scope}|${canonical(query)}`;
  const hit = deps.cache.get(cacheKey, ctx.now);
  if (hit) return hit;
  const version = deps.cache.version;
  const keep = (reply: Reply): Reply => {
    const cached = { ...reply, bodyBytes: reply.bodyBytes ?? Buffer.from(JSON.stringify(reply.body)), at: ctx.now };
    deps.cache.set(cacheKey, cached, version);
    return cached;
  };
  const notFound = (e: unknown): Reply => {
    if (!isError(e, 'not_found')) throw e;
    return keep({ ...errorReply(e), header: ctx.header });
  };
  let reply: Reply | Promise<Reply>;
  try {
    reply = run(deps, method, ctx, { query });
  } catch (e) {
    return notFound(e);
  }
  return reply instanceof Promise ? reply.then(keep, notFound) : keep(reply);
}

/** A method's reply: run here, or in an index worker for the methods that answer from the index. */
function run(deps: ApiRouteDeps, method: ApiMethod, ctx: ApiContext, input: MethodInput): Reply | Promise<Reply> {
  if (method.pool) return runInPool(deps, method, ctx, input);
  const body = invoke(method, ctx, input);
  const reply = (b: object): Reply =>
    b instanceof SerializedBody
      ? { status: 200, header: ctx.header, body: undefined, bodyBytes: b.bytes, headers: ctx.headers }
      : { status: 200, header: ctx.header, body: b, headers: ctx.headers };
  return body instanceof Promise ? body.then(reply) : reply(body);
}

/**
 * A pool method's reply (ApiMethod.pool): the request goes to an index worker as it came, after
 * authentication and admission, and its body comes back rendered. The queue counts a fingerprint by
 * its body's bytes (its text's characters are at most that, and at most the cap).
 */
async function runInPool(deps: ApiRouteDeps, method: ApiMethod, ctx: ApiContext, input: MethodInput): Promise<Reply> {
  const kind = method.pool!;
  const chars = Math.min(input.body?.bytes.length ?? 0, ctx.options.maxFingerprintChars);
  const call: PoolCall = {
    method: method.name, input, caller: ctx.caller, country: ctx.country, now: ctx.now,
    baseUrl: ctx.links.baseUrl, maxFingerprintChars: ctx.options.maxFingerprintChars,
  };
  const answer = (await deps.index.call(POOL_WORKER, kind === 'fingerprint' ? { kind, chars } : { kind }, call)) as PoolAnswer;
  Object.assign(ctx.header, answer.header);
  Object.assign(ctx.headers, answer.headers);
  const bytes = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
  return { status: 200, header: ctx.header, body: undefined, bodyBytes: bytes, headers: ctx.headers };
}

/** POST methods: read the (capped) body, or take the one already being read, then run the method with it. */
function runWithBody(call: Call, method: ApiMethod, ctx: ApiContext, bodyInFlight?: Promise<Buffer>): Promise<Outgoing> {
  const { deps, incoming, query } = call;
  // Refused before the body is read (throws to proceed's catch); a body already being read goes on.
  if (!bodyInFlight) method.admitBody?.(ctx, incoming.contentLength);
  return (bodyInFlight ?? incoming.readBody(deps.maxBodyBytes))
    .then((bytes) => run(deps, method, ctx, { query, body: { bytes, contentType: incoming.contentType } }))
    .catch((e: unknown) => failure(call, e))
    .then((reply) => finish(call, reply));
}

/**
 * A batch (ApiMethod.input `ndjson`, src/api/batch.ts): the body read and its lines parsed, the
 * query's parameters checked once, then an NDJSON answer streamed as the index workers screen the
 * texts. What is wrong with the request as a whole (format, parameters, too many lines, no lines)
 * is answered with the usual envelope before anything is screened.
 */
function runBatch(call: Call, method: ApiMethod, ctx: ApiContext, bodyInFlight?: Promise<Buffer>): Promise<Outgoing> {
  const { deps, incoming, query } = call;
  return (bodyInFlight ?? incoming.readBody(deps.maxBodyBytes))
    .then((bytes): Outgoing => {
      if (call.out.format !== 'json') throw new RefrainError('bad_request', `${method.name} answers NDJSON only: leave out format`);
      // Every line's text is screened with the query's parameters: checked once here (an empty text passes the schema).
      const params = method.params.safeParse({ ...query, data: { text: '' } });
      if (!params.success) throw new RefrainError('bad_request', paramHint(params.error, query));
      if (!NDJSON_TYPE.test(incoming.contentType)) {
        throw new RefrainError('bad_request', 'the body must be NDJSON (Content-Type: application/x-ndjson): one {"id": "…", "text": "…"} per line');
      }
      const batch = parseBatch(bytes);
      const pool: Pick<PoolCall, 'caller' | 'country' | 'now' | 'baseUrl' | 'maxFingerprintChars'> = {
        caller: ctx.caller, country: ctx.country, now: ctx.now, baseUrl: ctx.links.baseUrl, maxFingerprintChars: ctx.options.maxFingerprintChars,
      };
      // The request itself was admitted as the first text; each further one counts on its own.
      let admitted = 0;
      const run: BatchRun = {
        admit: () => {
          if (admitted++ > 0) deps.usage.admit(ctx.caller, deps.clock());
        },
        screen: async (lines) => {
          const chars = lines.reduce((n, l) => n + Math.min(l.text.length, ctx.options.maxFingerprintChars), 0);
          const payload: PoolCall = { ...pool, method: method.name, input: { query }, lines };
          const answer = (await deps.index.call(POOL_WORKER, { kind: 'fingerprint', chars }, payload)) as PoolAnswer;
          if (answer.late) deps.index.countDeadline(answer.late);
          return answer;
        },
        inFlight: deps.index.threads,
        log: (err) => deps.logger.error({ err, method: method.name }, 'a batch task failed'),
      };
      const head = finish(call, { status: 200, header: {}, body: [], headers: {} });
      return { status: head.status, headers: { ...head.headers, 'content-type': 'application/x-ndjson; charset=utf-8' }, stream: (body) => streamBatch(body, batch, run) };
    })
    .catch((e: unknown) => finish(call, failure(call, e)));
}

/** The Content-Types a batch's body may have. */
const NDJSON_TYPE = /^application\/(x-)?(ndjson|jsonl|jsonlines|json-lines)\b/i;

/** The error reply, with the header fields the method set before failing. */
function failure(call: Call, e: unknown): Reply {
  if (!(e instanceof RefrainError)) call.deps.logger.error({ err: e }, 'unhandled error in API method');
  const reply = errorReply(e);
  Object.assign(reply.header, call.extraHeader);
  return reply;
}
