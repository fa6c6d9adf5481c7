// What scripts/server.mjs refuses before Next sees a request, because Next would answer it with a
// bare 500 or hang on it: methods it cannot route (TRACE, PROPFIND, …), a path whose percent-
// encoding is malformed or not UTF-8, NUL and other control characters in the path or query, and a
// declared body over the limit (answered at once; scripts/server.mjs then reads and drops the rest,
// within bounds, so a client still sending it reads the answer). Each refusal is a 4xx problem
// naming what is wrong (a small HTML page for a browser asking for a page).
// scripts/server.mjs loads it (through tsx) before Next; it shares the request id and the problem
// body with every route (request-id.ts, errors.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { MAX_BODY_BYTES } from '@/lib/constants';
import { problemBody, type TFieldError } from './errors';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id';
import routeTable from './route-table.json';

export { MAX_BODY_BYTES };

type TRoute = (typeof routeTable.routes)[number];
/** What the front door reads of a request. */
export type TDoorRequest = { method?: string; url?: string; headers: IncomingHttpHeaders };
/** A refusal: the answer, and whether the connection must close after it (its body is not wanted). */
export type TRefusal = { status: number; close: boolean; body: string; headers: Record<string, string> };

const ROUTABLE = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const CONTROL = /[\u0000-\u001f\u007f]/;

const compiled = routeTable.routes.map((r) => ({
  ...r,
  pattern: new RegExp(`^${r.path.replace(/[.]/g, '\\.').replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
  params: r.path.match(/:/g)?.length ?? 0,
}));

const firstSegment = (pathname: string) => pathname.split('/', 2)[1] ?? '';
// The routes that can serve a first segment (its own, then those with a parameter there), fewest
// parameters first, made once: a request is matched against a few, not all of them, with no sort
// (every request passes here: 3 % of a receipt's CPU).
const byParams = (list: typeof compiled) => [...list].sort((a, b) => a.params - b.params);
const anySegment = compiled.filter((r) => r.path.startsWith('/:'));
const byFirstSegment = new Map<string, typeof compiled>();
for (const key of new Set(compiled.filter((r) => !r.path.startsWith('/:')).map((r) => firstSegment(r.path)))) {
  byFirstSegment.set(key, byParams([...compiled.filter((r) => !r.path.startsWith('/:') && firstSegment(r.path) === key), ...anySegment]));
}
const otherSegments = byParams(anySegment);

/** The route-table entry serving `pathname`, if any (static segments win over parameters). */
export function routeOf(pathname: string): (TRoute & { pattern: RegExp }) | undefined {
  return (byFirstSegment.get(firstSegment(pathname)) ?? otherSegments).find((r) => r.pattern.test(pathname));
}

/** The Allow header of a route: its methods, HEAD with GET, and OPTIONS on the API (see otherMethods). */
export function allowOf(route: TRoute): string {
  const methods: string[] = [...route.methods];
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  if (route.kind !== 'page' && !methods.includes('OPTIONS')) methods.push('OPTIONS');
  return methods.join(', ');
}

function describeChar(ch: string): string {
  return ch === '\u0000' ? 'a NUL byte (%00)' : `a control character (U+${ch.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()})`;
}

/** Why the path cannot be served, or null. */
function pathProblem(rawPath: string): { field: string; message: string } | null {
  const segments = rawPath.split('/');
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { field: 'path', message: `The path segment "${segment.slice(0, 60)}" is not valid percent-encoded UTF-8; write a literal % as %25.` };
    }
    const bad = CONTROL.exec(decoded);
    if (bad) return { field: 'path', message: `The path segment "${segment.slice(0, 60)}" contains ${describeChar(bad[0])}.` };
  }
  return null;
}

/** Why the query cannot be read, or null: the parameter is named. */
function queryProblem(rawQuery: string): { field: string; message: string } | null {
  for (const pair of rawQuery.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      return {
        field: rawName.slice(0, 60),
        message: `The query parameter "${rawName.slice(0, 60)}" is not valid percent-encoded UTF-8; write a literal % as %25.`,
      };
    }
    const bad = CONTROL.exec(name) ?? /\u0000/.exec(value);
    if (bad)
      return {
        field: name.replace(CONTROL, '?').slice(0, 60),
        message: `The query parameter "${name.replace(CONTROL, '?').slice(0, 60)}" contains ${describeChar(bad[0])}.`,
      };
  }
  return null;
}

function requestIdOf(req: TDoorRequest): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return requestIdFrom(typeof incoming === 'string' ? incoming : null);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The refusal of a request Next must not see, or null to pass it on:
 * `{ status, headers, body }`, with `close` when the unread body means the connection must end.
 */
export function refusal(req: TDoorRequest): TRefusal | null {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const rawQuery = q < 0 ? '' : url.slice(q + 1);
  // Matched on the path as sent: parameters match encoded or not, and a bad escape still tells a page from the API.
  const route = routeOf(rawPath);
  const build = (
    status: number,
    detail: string,
    { errors, headers = {}, close = false }: { errors?: TFieldError[]; headers?: Record<string, string>; close?: boolean } = {},
  ): TRefusal => {
    const id = requestIdOf(req);
    const title = STATUS_CODES[status] ?? 'Error';
    const wantsPage = route?.kind === 'page' && /text\/html/.test(req.headers.accept ?? '');
    const body = wantsPage
      ? `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status} ${title}</title>` +
        `<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>${status} ${title}</h1><p>${escapeHtml(detail)}</p><p><a href="/">Back to the console</a></p></body></html>`
      : JSON.stringify(problemBody(status, detail, errors));
    return {
      status,
      close,
      body,
      headers: {
        'content-type': wantsPage ? 'text/html; charset=utf-8' : 'application/problem+json',
        'cache-control': 'no-store',
        [REQUEST_ID_HEADER]: id,
        ...headers,
      },
    };
  };

  const badPath = pathProblem(rawPath);
  if (badPath) return build(400, badPath.message, { errors: [{ path: badPath.field, message: 'malformed' }] });
  // Senders are machines: a path under /ingest that names no receiver is a problem, not Next's HTML page.
  if (!route && /^\/ingest(\/|$)/.test(rawPath)) {
    return build(404, `No receiver at ${rawPath.slice(0, 200)}; a receiver's URL is /ingest/{slug}.`);
  }
  if (!ROUTABLE.has(req.method ?? '')) {
    if (!route) return build(404, `Nothing is served at ${rawPath.slice(0, 200)}.`);
    const allow = allowOf(route);
    return build(405, `${req.method} is not allowed here; use ${allow}.`, { headers: { allow } });
  }
  // The receiver stores every request as it came, query included (as text, still encoded).
  if (route?.kind === 'receiver') return null;

  const badQuery = queryProblem(rawQuery);
  if (badQuery) return build(400, badQuery.message, { errors: [{ path: badQuery.field, message: 'malformed' }] });

  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES && route?.kind === 'form') {
    // A browser posted the donor form: back to it, which says the form was too large (the code
    // `tooLarge` of GIVE_FORM_ERRORS in lib/service/connect-page/give-form.ts), as the route does.
    const location = `${rawPath.replace(/\/give\/?$/, '')}?error=tooLarge#give`;
    return { status: 303, close: true, body: '', headers: { location, 'cache-control': 'no-store', [REQUEST_ID_HEADER]: requestIdOf(req) } };
  }
  if (declared > MAX_BODY_BYTES) {
    return build(413, `The body is ${declared} bytes; the limit is ${MAX_BODY_BYTES}.`, { close: true });
  }
  return null;
}
