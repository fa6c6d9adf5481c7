import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import type { TScope } from '@/lib/constants';
import { ZOAuthError, ZPageQuery, ZProblem } from './shared-schemas';

// One registration per operation: `op('GET /v1/grants/{id}', {...})` next to the operation's
// schemas (lib/service/<area>/openapi.ts) expands to a full OpenAPI operation: security, the
// request's parameters and body, the success response, and every error the service's wrappers
// can answer for an operation of that kind (problem+json, X-Request-Id, WWW-Authenticate, …).

export type TMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
type TRoute = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

/** none · bearer token · bearer token + the Connect's API key · bearer token, API key optional. */
export type TAuth = 'none' | 'bearer' | 'bearer+apiKey' | 'bearer+optionalApiKey';

export type TOperationSpec = {
  /** operationId: camelCase, unique. */
  id: string;
  summary: string;
  description?: string;
  tag: string;
  /** An extension (EXT): not in the seed API spec. */
  ext?: boolean;
  /** A POST or PATCH safe to send twice (the repeat changes nothing more): x-idempotent, so a client may retry it. */
  idempotent?: true;
  auth: TAuth;
  scope?: TScope;
  path?: z.ZodObject;
  query?: z.ZodObject;
  /** Adds pageLimit and pageToken (the response should be a page(...)). */
  paged?: boolean;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be left out (an empty body stands for {}). */
  bodyOptional?: boolean;
  /** Content types of the body besides application/json. */
  bodyTypes?: string[];
  status?: 200 | 201 | 202 | 204;
  /** The success body (none for 204); with `responseType` application/x-ndjson, the schema of each line. */
  response?: z.ZodType;
  /** The success body's content type: application/json unless said. */
  responseType?: 'application/json' | 'application/x-ndjson';
  /** Headers of the success response besides X-Request-Id. */
  responseHeaders?: z.ZodObject;
  /** Error statuses besides those its kind always has (400, 413, 500, 503; 401/403 with auth; 404 with path ids; 415 with a body). */
  errors?: number[];
  /** Errors in the OAuth shape (the token endpoint). */
  oauthErrors?: boolean;
};

export type TOperation = { method: TMethod; path: string; ext: boolean; operation: ZodOpenApiOperationObject };

const REQUEST_ID = z.string().meta({ description: 'The request id (sent by the caller when sane, else generated); quote it in support requests.' });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed or invalid input: `detail` says what, `errors` names each field.',
  401: 'Missing, malformed, expired or foreign access token.',
  403: 'The token lacks the scope, or the API key is missing, invalid or of another account.',
  404: 'No such resource, or one owned by another account.',
  409: 'Conflict with the current state.',
  413: 'The body is over 256 KiB.',
  415: 'The body is not JSON where JSON is required.',
  429: 'Too many requests: wait `Retry-After` seconds.',
  500: 'A bug: the problem carries only the request id to quote.',
  503: 'The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds.',
};

function errorResponse(status: number, spec: TOperationSpec): ZodOpenApiResponseObject {
  const headers: Record<string, z.ZodType> = { 'x-request-id': REQUEST_ID };
  if (status === 401) headers['www-authenticate'] = z.string().meta({ description: 'Bearer realm="giving-connect", with error="invalid_token" when a token was sent.' });
  if (status === 403 && spec.auth !== 'none') headers['www-authenticate'] = z.string().optional().meta({ description: 'error="insufficient_scope" when the scope is missing.' });
  if (status === 429 || status === 503) headers['retry-after'] = z.string().regex(/^\d+$/).meta({ description: 'Seconds to wait.' });
  const content: ZodOpenApiResponseObject['content'] = { 'application/problem+json': { schema: ZProblem } };
  if (spec.oauthErrors && status !== 500 && status !== 503) content['application/json'] = { schema: ZOAuthError };
  return { description: ERROR_DESCRIPTIONS[status] ?? 'Error.', headers: z.object(headers), content };
}

function errorStatuses(spec: TOperationSpec): number[] {
  const statuses = new Set([400, 500, 503, ...(spec.errors ?? [])]);
  if (spec.auth !== 'none') statuses.add(401);
  if (spec.scope || spec.auth.includes('apiKey')) statuses.add(403);
  if (spec.path) statuses.add(404);
  statuses.add(413); // the front door refuses a declared body over the limit on any route, at once
  if (spec.body) statuses.add(415);
  return [...statuses].sort();
}

function security(spec: TOperationSpec): ZodOpenApiOperationObject['security'] {
  const oauth = { oauth2: spec.scope ? [spec.scope] : [] };
  switch (spec.auth) {
    case 'none':
      return [];
    case 'bearer':
      return [oauth];
    case 'bearer+apiKey':
      return [{ ...oauth, apiKey: [] }];
    case 'bearer+optionalApiKey':
      return [oauth, { ...oauth, apiKey: [] }];
  }
}

/** The OpenAPI operation of `route` ('GET /v1/grants/{id}'), from its schemas. */
export function op(route: TRoute, spec: TOperationSpec): TOperation {
  const [method, path] = route.split(' ') as [string, string];
  const status = spec.status ?? 200;
  const success: ZodOpenApiResponseObject = {
    description: spec.summary,
    headers: z.object({ 'x-request-id': REQUEST_ID, ...(spec.responseHeaders?.shape ?? {}) }),
    ...(spec.response ? { content: { [spec.responseType ?? 'application/json']: { schema: spec.response } } } : {}),
  };
  const responses = Object.fromEntries([
    [String(status), success],
    ...errorStatuses(spec).map((s) => [String(s), errorResponse(s, spec)]),
  ]) as ZodOpenApiResponsesObject;
  const query = spec.paged ? (spec.query ? ZPageQuery.extend(spec.query.shape) : ZPageQuery) : spec.query;
  const ext = spec.ext ?? false;
  const operation: ZodOpenApiOperationObject = {
    operationId: spec.id,
    summary: spec.summary,
    description: [ext ? '**Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).' : null, spec.description ?? null]
      .filter(Boolean)
      .join('\n\n') || undefined,
    tags: [spec.tag],
    security: security(spec),
    requestParams: Object.fromEntries(Object.entries({ path: spec.path, query, header: spec.headers }).filter(([, v]) => v)),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.bodyOptional,
            content: Object.fromEntries(['application/json', ...(spec.bodyTypes ?? [])].map((type) => [type, { schema: spec.body! }])),
          },
        }
      : {}),
    responses,
    'x-extension': ext,
    ...(spec.idempotent ? { 'x-idempotent': true } : {}),
  };
  return { method: method.toLowerCase() as TMethod, path, ext, operation };
}
