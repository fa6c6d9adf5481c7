import createClient, { createFinalURL, defaultPathSerializer, type MaybeOptionalInit } from 'openapi-fetch';
import type { PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { operation, type TMethod, type TOperation } from './contract';
import type { TProblemInfo } from './errors';
import { enc, type TCall } from './transport';
import { ConnectApiStreamTransport, type TLineStream } from './transport-stream';
import type { TData, TLine, TPaths } from './types';

// The console's only way to the Giving Connect API: every operation of the service's OpenAPI
// document, typed from it (openapi/connect-api.d.ts) and called by its path —
// `api.get('/v1/webhooks/{id}', { params: { path: { id } } })` — through openapi-fetch over the
// transport (transport.ts: token, retries, EXT detection). Every answer passes the document's
// lenient check (contract.ts) or is an upstream error naming the field.

type TInit<P extends keyof TPaths, M extends TMethod> = MaybeOptionalInit<TPaths[P], M>;
type TArgs<I> = RequiredKeysOf<I> extends never ? [init?: I] : [init: I];
type TAnyInit =
  | {
      params?: { path?: Record<string, string>; query?: Record<string, unknown>; header?: Record<string, string> };
      headers?: Record<string, string>;
      body?: unknown;
    }
  | undefined;

/** Query parameters as the transport always sent them: empty values left out. */
function serializeQuery(query: Record<string, unknown>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  return qs.toString();
}

/** Whether a 404's problem detail names the resource `id` (and is not a router's echo of `path`). */
function namesResource(problem: TProblemInfo | null, id: string, path: string): boolean {
  const detail = problem?.detail ?? '';
  return detail.includes(id) && !detail.includes(path);
}

export class ConnectApi extends ConnectApiStreamTransport {
  private readonly client = createClient<TPaths>({ baseUrl: this.serviceUrl(''), querySerializer: serializeQuery });

  get<P extends PathsWithMethod<TPaths, 'get'>>(path: P, ...[init]: TArgs<TInit<P, 'get'>>): Promise<TData<P, 'get'>> {
    return this.json('get', path, init as TAnyInit) as Promise<TData<P, 'get'>>;
  }

  post<P extends PathsWithMethod<TPaths, 'post'>>(path: P, ...[init]: TArgs<TInit<P, 'post'>>): Promise<TData<P, 'post'>> {
    return this.json('post', path, init as TAnyInit) as Promise<TData<P, 'post'>>;
  }

  patch<P extends PathsWithMethod<TPaths, 'patch'>>(path: P, ...[init]: TArgs<TInit<P, 'patch'>>): Promise<TData<P, 'patch'>> {
    return this.json('patch', path, init as TAnyInit) as Promise<TData<P, 'patch'>>;
  }

  async delete<P extends PathsWithMethod<TPaths, 'delete'>>(path: P, ...[init]: TArgs<TInit<P, 'delete'>>): Promise<void> {
    await this.json('delete', path, init as TAnyInit);
  }

  /** An NDJSON operation (EXT): its lines, each checked, read as the caller iterates. */
  stream<P extends PathsWithMethod<TPaths, 'get'>>(path: P, ...[init]: TArgs<TInit<P, 'get'>>): Promise<TLineStream<TLine<P>>> {
    const op = operation('get', path);
    const { params = {}, headers } = (init ?? {}) as NonNullable<TAnyInit>;
    const url = createFinalURL(path, { baseUrl: this.serviceUrl(''), params, querySerializer: serializeQuery, pathSerializer: defaultPathSerializer });
    return this.streamLines(this.callOf(op, params.path ?? {}), url, { ...params.header, ...headers }, op.check);
  }

  private async json(method: TMethod, template: string, init: TAnyInit): Promise<unknown> {
    const op = operation(method, template);
    const call = this.callOf(op, init?.params?.path ?? {});
    const send = async (req: Request) => {
      const res = await this.exchange(call, req.method, req.url, Object.fromEntries(req.headers), req.body ? await req.text() : undefined);
      return new Response(res.status === 204 ? null : res.text, { status: res.status, headers: { 'x-request-id': String(res.headers['x-request-id'] ?? '') } });
    };
    const request = this.client.request as (m: string, p: string, i: object) => Promise<{ data?: string; response: Response }>;
    const { data, response } = await request(method, template, { ...init, parseAs: 'text', fetch: send });
    const body = data ? parseJson(data) : undefined;
    const checked = op.check(body);
    if (!checked.ok) throw this.shapeError(op.label, response.headers.get('x-request-id'), checked.where);
    return body;
  }

  /** The transport's view of `op` with these path ids: which 404s of an EXT route mean the route is missing. */
  private callOf(op: TOperation, ids: Record<string, string>): TCall {
    const call: TCall = { operation: op.label, idempotent: op.idempotent };
    if (!op.ext) return call;
    const { id = '', messageId = '' } = ids;
    const t = op.template;
    if (!t.includes('{')) return { ...call, ext: 'list' };
    // A service with the route names the grant it lacks ("No grant with the id …"); one without answers a generic 404.
    if (t === '/v1/grants/{id}') return { ...call, ext: { resourceMissing: (problem) => namesResource(problem, id, `/v1/grants/${enc(id)}`) } };
    // The route exists when the account's message list answers: then a 404 is the message's.
    if (t === '/v1/messages/{id}') return { ...call, ext: { resourceMissing: () => this.succeeds('/v1/messages', { pageLimit: 1 }) } };
    // Under a webhook (or its message): missing when the webhook (or message) itself exists.
    if (t.startsWith('/v1/webhooks/{id}/messages/{messageId}/'))
      return { ...call, ext: { probe: () => this.succeeds(`/v1/webhooks/${enc(id)}/messages/${enc(messageId)}`) } };
    return { ...call, ext: { probe: () => this.succeeds(`/v1/webhooks/${enc(id)}/messages`, { pageLimit: 1 }) } };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
