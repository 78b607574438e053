/**
 * GET /ws/1.1/openapi.json: an OpenAPI 3.1 document of every method, generated from the same zod
 * schemas that validate requests (parameters: their input side) and describe bodies.
 */
import { z } from 'zod';
import type { ApiMethod } from './method.js';

type JsonSchema = { properties?: Record<string, JsonSchema & { description?: string }>; required?: string[]; [k: string]: unknown };

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request: a parameter is missing or malformed (header.hint names it)',
  401: 'authentication failed: missing, invalid or revoked apikey or access token',
  402: 'usage limit reached: the daily quota is spent',
  403: 'not authorized: the plan does not include this method, or the access token lacks its scope',
  404: 'not found',
  405: 'unknown API method, or the wrong HTTP verb',
  410: 'gone: the method passed its sunset',
  413: 'request body too large',
  429: 'rate limited: see Retry-After',
  503: 'busy: try again shortly',
};

const SCOPE_TEXT: Record<string, string> = {
  'catalog:read': 'read methods (lookups, search, matcher, charts, lyrics, subtitles)',
  fingerprint: 'track.lyrics.fingerprint.post (enterprise plan)',
  'works:write': 'work.post',
  'contributions:write': 'track.lyrics.post and track.lyrics.feedback.post',
  'feeds:read': 'tracks.dump.get and feed downloads',
  openid: 'an id_token',
  profile: "the user's name",
  email: "the user's e-mail address",
};

const COMMON_PARAMS = [
  { name: 'apikey', in: 'query', required: false, description: 'API key (or send Authorization: Bearer)', schema: { type: 'string' } },
  { name: 'format', in: 'query', required: false, description: 'json (default), xml or jsonp', schema: { type: 'string', enum: ['json', 'xml', 'jsonp'] } },
  { name: 'callback', in: 'query', required: false, description: 'JSONP callback name (format=jsonp)', schema: { type: 'string' } },
];

function envelope(body: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['message'],
    properties: {
      message: {
        type: 'object',
        required: ['header', 'body'],
        properties: {
          header: {
            type: 'object',
            required: ['status_code', 'execute_time'],
            properties: { status_code: { type: 'integer' }, execute_time: { type: 'number' }, hint: { type: 'string' } },
          },
          body,
        },
      },
    },
  };
}

/** Statuses whose HTTP status is kept when the others travel in the envelope under HTTP 200 (docs/api.md). */
const KEPT_IN_HTTP = new Set([413, 429, 503]);

function operation(m: ApiMethod, httpStatus: '200' | 'mirror'): Record<string, unknown> {
  const input = z.toJSONSchema(m.params, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(input.required ?? []);
  const parameters = Object.entries(input.properties ?? {})
    .filter(([name]) => name !== 'data')
    .map(([name, schema]) => ({ name, in: 'query', required: required.has(name), description: schema.description, schema }));
  const success = envelope(z.toJSONSchema(m.body, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
  const failure = envelope({ type: 'array', maxItems: 0 });
  const statuses = [...new Set([401, 402, 403, 405, 429, ...(m.statuses ?? []), ...(m.http === 'POST' ? [413] : [])])].sort();
  const responses: Record<string, unknown> = {};
  if (httpStatus === 'mirror') {
    responses[200] = { description: 'success', content: { 'application/json': { schema: success } } };
  } else {
    const inEnvelope = statuses.filter((status) => !KEPT_IN_HTTP.has(status));
    responses[200] = {
      description:
        'success, or an error whose status is in message.header.status_code and x-refrain-header-status (HTTP stays 200, as the public API answers): ' +
        inEnvelope.map((status) => `${status} ${STATUS_TEXT[status] ?? 'error'}`).join('; ') +
        '. A refused Bearer token is HTTP 401 or 403 with a WWW-Authenticate challenge.',
      content: { 'application/json': { schema: { oneOf: [success, failure] } } },
    };
  }
  for (const status of statuses) {
    if (httpStatus === 'mirror' || KEPT_IN_HTTP.has(status)) {
      responses[status] = { description: STATUS_TEXT[status] ?? 'error', content: { 'application/json': { schema: failure } } };
    }
  }
  const op: Record<string, unknown> = { operationId: m.name, summary: m.summary, parameters: [...COMMON_PARAMS, ...parameters], responses };
  if (m.deprecated) op.deprecated = true;
  if (m.plans) op['x-plans'] = m.plans;
  op.security = [{ apikey: [] }, { bearer: [] }, { oauth2: [m.scope ?? 'catalog:read'] }];
  const data = input.properties?.data;
  if (data) op.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data } } } } };
  if (m.input === 'ndjson') {
    // A batch: NDJSON in and out (src/api/batch.ts); the envelope only for a request refused as a whole.
    const text = (data as JsonSchema | undefined)?.properties?.text;
    op.requestBody = {
      required: true,
      content: { 'application/x-ndjson': { schema: { type: 'object', required: ['id', 'text'], properties: { id: { type: ['string', 'number'] }, text } } } },
    };
    const lines = z.toJSONSchema(m.body, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
    op.responses = {
      ...responses,
      200: {
        description: 'one NDJSON line per text as it is screened (any order); a request refused as a whole (its format, parameters, lines) gets the usual JSON envelope instead',
        content: { 'application/x-ndjson': { schema: lines }, 'application/json': { schema: failure } },
      },
    };
  }
  if (m.input === 'fields') {
    // The parameters may come in the query, a form body or the JSON body's data alike (ApiMethod.input).
    const fields = { type: 'object', properties: input.properties };
    op.requestBody = {
      required: false,
      content: {
        'application/x-www-form-urlencoded': { schema: fields },
        'application/json': { schema: { type: 'object', properties: { data: fields } } },
      },
    };
    op.parameters = [...COMMON_PARAMS, ...parameters.map((p) => ({ ...p, required: false, description: `${p.description ?? ''}${required.has(p.name) ? ' (required: here, in a form body or in the JSON body\'s data)' : ''}`.trim() }))];
  }
  return op;
}

export function openapiDocument(methods: Iterable<ApiMethod>, serverUrl: string, httpStatus: '200' | 'mirror' = '200'): object {
  const paths: Record<string, unknown> = {};
  for (const m of methods) paths[`/ws/1.1/${m.name}`] = { [m.http.toLowerCase()]: operation(m, httpStatus) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Refrain lyrics and catalog API',
      version: '1.0.0',
      description: 'The /ws/1.1/ lyrics and catalog API served by Refrain. Every response is wrapped in {message:{header,body}}.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        apikey: { type: 'apiKey', in: 'query', name: 'apikey' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'an access token of /oauth/token (docs/oauth.md)' },
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: { authorizationUrl: `${serverUrl}/oauth/authorize`, tokenUrl: `${serverUrl}/oauth/token`, scopes: SCOPE_TEXT },
            clientCredentials: { tokenUrl: `${serverUrl}/oauth/token`, scopes: SCOPE_TEXT },
          },
        },
      },
    },
    security: [{ apikey: [] }, { bearer: [] }],
    paths,
  };
}
