/**
 * Calling a method with a request's input, wherever it runs (route.ts on the HTTP thread,
 * pool-worker.ts in an index worker): a POST's parameters from its body, validation, the handler.
 */
import type { ApiMethod, PoolContext, ApiContext, HandlerContext } from './method.js';
import { RefrainError } from '../errors.js';
import { paramHint, parseQuery } from './params.js';

/** A request's input: the query's parameters, and a POST's body (or its `data`, already read: a batch line's). */
export interface MethodInput {
  query: Record<string, string>;
  body?: { bytes: Uint8Array; contentType: string };
  data?: unknown;
}

/** The method's body for this input (a promise for methods that ask the index); a bad parameter throws its 400. */
export function invoke(method: ApiMethod, ctx: ApiContext | PoolContext, input: MethodInput): object | Promise<object> {
  const params = input.body ? postParams(method, input.body.contentType, input.body.bytes, input.query) : input.data !== undefined ? { ...input.query, data: input.data } : input.query;
  const parsed = method.params.safeParse(params);
  if (!parsed.success) throw new RefrainError('bad_request', paramHint(parsed.error, params));
  // A pool method's handler reads only what a PoolContext holds (ApiMethod.pool).
  return method.handle(ctx as HandlerContext, parsed.data);
}

/** A POST's parameters: the query's and the body's, as the method takes them (ApiMethod.input). */
function postParams(method: ApiMethod, contentType: string, body: Uint8Array, query: Record<string, string>): Record<string, unknown> {
  const fields = method.input === 'fields';
  if (fields && body.length === 0) return query;
  const text = () => Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  if (fields && /^application\/x-www-form-urlencoded\b/i.test(contentType)) return { ...query, ...parseQuery(text()) };
  if (!/^application\/json\b/i.test(contentType)) {
    throw new RefrainError('bad_request', `the body must be JSON (Content-Type: application/json)${fields ? ' or a form (application/x-www-form-urlencoded)' : ''}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text());
  } catch {
    throw new RefrainError('bad_request', 'the body is not valid JSON');
  }
  const data = json && typeof json === 'object' && 'data' in json ? (json as { data: unknown }).data : undefined;
  if (!fields) return { ...query, data };
  if (data === undefined) return query;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new RefrainError('bad_request', 'data must be an object of parameters');
  const out: Record<string, unknown> = { ...query };
  for (const [k, v] of Object.entries(data)) out[k] = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  return out;
}
