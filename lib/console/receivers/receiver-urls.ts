import ipaddr from 'ipaddr.js';

// Which console receiver a URL reaches. A receiver is named by its path (`/ingest/{slug}`); the
// host only has to be one this app answers on: its public URLs, any loopback alias or address of
// this machine on the app's port, the hosts an operator listed (CONSOLE_RECEIVER_HOSTS, for a
// proxy's public name) and the hosts verified arrivals at that receiver came to. An arrival is
// matched to a webhook URL by the address it came to (the receipt's host). Pure: no database, no
// env — lib/console/receivers/console-addresses.ts gathers the addresses.

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** scheme://host[:port]/path without trailing slashes, lower-cased where URLs are case-blind; null when not a URL. */
export function normaliseUrl(value: string): string | null {
  const url = parseHttpUrl(value);
  if (!url) return null;
  const port = url.port && url.port !== DEFAULT_PORTS[url.protocol] ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${canonicalHostname(url.hostname)}${port}${path}`;
}

export function sameDestination(a: string, b: string): boolean {
  const na = normaliseUrl(a);
  return na !== null && na === normaliseUrl(b);
}

function parseHttpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/** Lower case; IP addresses in one spelling (`[::1]` → `::1`, `::ffff:127.0.0.1` → `127.0.0.1`). */
export function canonicalHostname(hostname: string): string {
  const bare = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '')
    .replace(/\.$/, '');
  if (!ipaddr.isValid(bare)) return bare;
  const addr = ipaddr.process(bare);
  return addr.toString();
}

export type THostPort = { hostname: string; port: string | null };

/** `host[:port]` as a Host header or X-Forwarded-Host carries it (`[::1]:3000`, `example.org`); null when unreadable. */
export function parseHost(value: string): THostPort | null {
  const v = value.trim();
  if (!v) return null;
  const m = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(v) ?? /^([A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(v);
  if (m) return { hostname: canonicalHostname(m[1]), port: m[2] ?? null };
  // A bare IPv6 address without brackets (no port can be told apart).
  return ipaddr.IPv6.isValid(v) ? { hostname: canonicalHostname(v), port: null } : null;
}

/**
 * Whether an arrival that came to `host` (a receipt's host) answers this URL: same host name and
 * port, a missing port standing for the scheme's default on the URL's side and for 80 or 443 on
 * the header's side (a proxy in front may have ended TLS).
 */
export function hostMatchesUrl(host: string, url: string): boolean {
  const h = parseHost(host);
  const u = parseHttpUrl(url);
  if (!h || !u || h.hostname !== canonicalHostname(u.hostname)) return false;
  const urlPort = u.port || DEFAULT_PORTS[u.protocol];
  return h.port === null ? urlPort === '80' || urlPort === '443' : h.port === urlPort;
}

export type TConsoleAddresses = {
  /** `host[:port]` this app is reached under: its public URLs and CONSOLE_RECEIVER_HOSTS. */
  hosts: readonly string[];
  /** The port this app listens on: loopback aliases and this machine's addresses on it are this app. */
  port: string;
  /** This machine's interface addresses (loopback is always included). */
  localAddresses: readonly string[];
  /** Hosts that verified arrivals at each receiver came to (receiver id → hosts). */
  learned?: ReadonlyMap<string, readonly string[]>;
};

/** Only the console's own URL: what callers without the gathered addresses can say. */
export function addressesOfUrl(consoleUrl: string): TConsoleAddresses {
  return { hosts: [hostOfUrl(consoleUrl)].filter((h): h is string => h !== null), port: '', localAddresses: [] };
}

/** `host:port` of a URL with the port always written (a default one too), or null. */
export function hostOfUrl(value: string): string | null {
  const u = parseHttpUrl(value);
  return u ? `${u.hostname}:${u.port || DEFAULT_PORTS[u.protocol]}` : null;
}

function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  return ipaddr.isValid(hostname) && ipaddr.process(hostname).range() === 'loopback';
}

/** Whether a URL's host is one this app answers on (for this receiver's learned hosts too). */
function isConsoleHost(url: URL, addresses: TConsoleAddresses, receiverId: string | null): boolean {
  const hostname = canonicalHostname(url.hostname);
  const port = url.port || DEFAULT_PORTS[url.protocol];
  const listed = [...addresses.hosts, ...(receiverId ? (addresses.learned?.get(receiverId) ?? []) : [])];
  if (listed.some((h) => hostMatchesUrl(h, url.toString()))) return true;
  if (!addresses.port || port !== addresses.port) return false;
  return isLoopback(hostname) || addresses.localAddresses.some((a) => canonicalHostname(a) === hostname);
}

/** The slug of an `/ingest/{slug}` path (trailing slashes ignored, percent-decoded), or null. */
export function ingestSlugOf(url: URL): string | null {
  const m = /^\/ingest\/([^/]+)\/*$/.exec(url.pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

export type TReceiverLike = { id: string; slug: string };

/**
 * The receiver this URL reaches, or null: its path is `/ingest/{slug}` of one of `receivers` and its
 * host is one this app answers on. `consoleAddresses` may be just the console's URL (as before the
 * addresses were gathered): then only that host counts.
 */
export function receiverForUrl<R extends TReceiverLike>(url: string, receivers: readonly R[], consoleAddresses: TConsoleAddresses | string): R | null {
  if (typeof consoleAddresses === 'string') return findReceiverForUrl(url, receivers, consoleAddresses);
  // A page joins hundreds of deliveries to the same few URLs: each is matched once per pair of
  // (receivers, addresses) — both read afresh for each request, so the answer cannot go stale.
  let byAddresses = memo.get(receivers);
  if (!byAddresses) memo.set(receivers, (byAddresses = new WeakMap()));
  let byUrl = byAddresses.get(consoleAddresses);
  if (!byUrl || byUrl.size > MEMO_MAX) byAddresses.set(consoleAddresses, (byUrl = new Map()));
  if (byUrl.has(url)) return byUrl.get(url) as R | null;
  const found = findReceiverForUrl(url, receivers, consoleAddresses);
  byUrl.set(url, found);
  return found;
}

const MEMO_MAX = 1000;
const memo = new WeakMap<readonly TReceiverLike[], WeakMap<TConsoleAddresses, Map<string, TReceiverLike | null>>>();

function findReceiverForUrl<R extends TReceiverLike>(url: string, receivers: readonly R[], consoleAddresses: TConsoleAddresses | string): R | null {
  const u = parseHttpUrl(url);
  if (!u) return null;
  const slug = ingestSlugOf(u);
  if (slug === null) return null;
  const receiver = receivers.find((r) => r.slug === slug);
  if (!receiver) return null;
  const addresses = typeof consoleAddresses === 'string' ? addressesOfUrl(consoleAddresses) : consoleAddresses;
  return isConsoleHost(u, addresses, receiver.id) ? receiver : null;
}
