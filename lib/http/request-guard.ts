// The two checks every request to the console and the API passes before anything serves it, made
// from the settings once: the name it was sent to (allowed-hosts.ts: DNS rebinding; 421) and, for a
// console request that would change something, the origin it came from (same-origin.ts: CSRF;
// 403). scripts/server.mjs asks hostRefusal of each request ahead of the receiver, the API's fast
// path and Next; proxy.ts asks guardRefusal (both checks) of what Next serves, so `next dev` is
// covered too and server actions (POSTs to page paths) with the routes.
// Left out of the host check: the receivers (/ingest/*: senders reach them through proxies and
// tunnels under names nobody listed — receiver-urls.ts learns them; a rebinding page gains nothing
// there: it could already post to a receiver it knows the slug of, a signature it cannot make is
// recorded as invalid and teaches no host, and what it could read back is the receiver's configured
// answer), and the probes (/api/health, /api/ready: load balancers and orchestrators ask by any
// name; /metrics: only to a bearer of METRICS_TOKEN). Left out of the origin check: the service's
// API (/v1, /oauth/token, …: bearer tokens, no cookies, so a page elsewhere has no credential to
// borrow; the donor's Connect form is public), and the receivers (senders are other origins).
import type { IncomingHttpHeaders } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';
import { foreignHost, namedHosts, type THostSettings } from './allowed-hosts';
import { problemBody } from './errors';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id';
import { SERVICE_PATHS } from './safety-headers';
import { foreignOrigin, originsOf, type TOriginSettings } from './same-origin';

export type TGuardRequest = { method: string; path: string; header: (name: string) => string | null | undefined };
export type TGuardRefusal = { status: number; body: string; headers: Record<string, string> };

const ANY_HOST = /^\/(ingest\/|api\/(health|ready)\/?$|metrics\/?$)/;
const NO_ORIGIN_CHECK = /^\/ingest\//;

const settings = () =>
  processSingleton('request-guard', (): { hosts: THostSettings; origins: TOriginSettings } => {
    const urls = [env.PUBLIC_URL, env.CONSOLE_PUBLIC_URL];
    return {
      hosts: { names: namedHosts(urls, env.CONSOLE_RECEIVER_HOSTS), trustProxy: env.TRUST_PROXY },
      origins: { origins: originsOf(urls), trustProxy: env.TRUST_PROXY },
    };
  });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A problem+json answer, or a small page for a browser asking for one outside the API. */
function refuse(req: TGuardRequest, status: number, detail: string): TGuardRefusal {
  const title = STATUS_CODES[status] ?? 'Error';
  const page = /text\/html/.test(req.header('accept') ?? '') && !/^\/(api|v1|oauth)\//.test(req.path);
  const body = page
    ? `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status} ${title}</title>` +
      `<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>${status} ${title}</h1><p>${escapeHtml(detail)}</p></body></html>`
    : JSON.stringify(problemBody(status, detail));
  return { status, body, headers: { 'content-type': page ? 'text/html; charset=utf-8' : 'application/problem+json', 'cache-control': 'no-store' } };
}

const shown = (value: string) => JSON.stringify(value.slice(0, 100));

function misdirected(req: TGuardRequest): TGuardRefusal | null {
  if (ANY_HOST.test(req.path)) return null;
  const foreign = foreignHost(req.header, settings().hosts);
  if (foreign === null) return null;
  return refuse(
    req,
    421,
    `This app does not answer to the name ${shown(foreign)}. It answers to localhost, IP addresses and the names its settings give: ` +
      `PUBLIC_URL, CONSOLE_PUBLIC_URL and CONSOLE_RECEIVER_HOSTS. If this is its address, set PUBLIC_URL to it (or add the name to CONSOLE_RECEIVER_HOSTS).`,
  );
}

function crossSite(req: TGuardRequest): TGuardRefusal | null {
  if (NO_ORIGIN_CHECK.test(req.path) || SERVICE_PATHS.test(req.path)) return null;
  const foreign = foreignOrigin(req.method, req.header, settings().origins);
  if (foreign === null) return null;
  return refuse(
    req,
    403,
    `This request came from ${foreign.startsWith('a ') ? foreign : `another origin (${shown(foreign)})`}, not from the console's own pages: ` +
      `the console takes changes only from its own origin (${settings().origins.origins.join(' or ')}, or the address it was opened at). ` +
      `If you open it at another address, set CONSOLE_PUBLIC_URL to it.`,
  );
}

/** proxy.ts: the host check, then the origin check; the refusal to answer, or null. */
export function guardRefusal(req: TGuardRequest): TGuardRefusal | null {
  return misdirected(req) ?? crossSite(req);
}

/** scripts/server.mjs: the host check of a node:http request, as a front-door refusal (lib/http/front-door.ts), or null. */
export function hostRefusal(req: { method?: string; url?: string; headers: IncomingHttpHeaders }): (TGuardRefusal & { close: false }) | null {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  const refused = misdirected({ method: req.method ?? 'GET', path: q < 0 ? url : url.slice(0, q), header });
  if (!refused) return null;
  const id = requestIdFrom(header(REQUEST_ID_HEADER));
  return { ...refused, close: false, headers: { ...refused.headers, [REQUEST_ID_HEADER]: id } };
}
