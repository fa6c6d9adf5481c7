import ipaddr from 'ipaddr.js';

// Which host names this app answers to (a defence against DNS rebinding: a page on a name its
// author controls, re-pointed at 127.0.0.1 or a private address, would otherwise read and drive a
// console that is only reachable from the victim's machine or network). A name is accepted when
//  - it is PUBLIC_URL's, CONSOLE_PUBLIC_URL's or one of CONSOLE_RECEIVER_HOSTS (the deployment names it);
//  - it is `localhost` or `*.localhost` (browsers resolve those to loopback themselves, never
//    through DNS, so no rebinding page can be served under them);
//  - it is an IP address (v4 dotted quad, or v6 in brackets): a browser sends an IP as Host only to
//    a page whose origin is that IP — the name rebinding needs is missing. Load balancers, probes
//    and people on a LAN reach the app this way. (Vite's dev server decides the same way.)
// Ports are not compared: rebinding is about the name, and a proxy may forward any port.
// With TRUST_PROXY=true every name the proxy forwarded (X-Forwarded-Host, Forwarded's host=) must be
// accepted as well as the Host: a proxy that passes the client's name on there, or appends it to
// one the client sent, is checked on it. Without TRUST_PROXY those headers are the client's to
// choose (a rebinding page may set them) and are ignored.

export type THostSettings = { names: readonly string[]; trustProxy: boolean };

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** `host[:port]` (a Host header, X-Forwarded-Host, CONSOLE_RECEIVER_HOSTS entry) → canonical name and port, or null when unreadable. */
export function splitHost(value: string): { name: string; port: string | null } | null {
  const m = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(value) ?? /^([A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(value);
  if (!m) return null;
  const name = m[1].toLowerCase().replace(/\.$/, '');
  if (value.startsWith('[')) return ipaddr.IPv6.isValid(name) ? { name: ipaddr.parse(name).toString(), port: m[2] ?? null } : null;
  return { name, port: m[2] ?? null };
}

/** The host name of an http(s) URL, as splitHost spells it; null when not a URL. */
function nameOfUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return splitHost(u.host)?.name ?? null;
  } catch {
    return null;
  }
}

/** The names the settings give: PUBLIC_URL's, CONSOLE_PUBLIC_URL's, CONSOLE_RECEIVER_HOSTS'. */
export function namedHosts(urls: readonly string[], extraHosts: readonly string[]): string[] {
  const names = [...urls.map(nameOfUrl), ...extraHosts.map((h) => splitHost(h)?.name ?? null)];
  return [...new Set(names.filter((n): n is string => n !== null))];
}

function isAcceptedName(name: string, named: readonly string[]): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (ipaddr.IPv4.isValidFourPartDecimal(name) || name.includes(':')) return true; // splitHost let only a valid IPv6 through with a colon
  return named.includes(name);
}

const MEMO_MAX = 256;
const memo = new WeakMap<THostSettings, Map<string, boolean>>();

/** Whether one `host[:port]` value names this app (memoised: a few distinct values arrive over and over). */
export function isAcceptedHost(value: string, settings: THostSettings): boolean {
  let known = memo.get(settings);
  if (!known || known.size > MEMO_MAX) memo.set(settings, (known = new Map()));
  let accepted = known.get(value);
  if (accepted === undefined) {
    const parsed = splitHost(value.trim());
    accepted = parsed !== null && isAcceptedName(parsed.name, settings.names);
    known.set(value, accepted);
  }
  return accepted;
}

/** The names a proxy says the client asked for: every X-Forwarded-Host value and every `host=` of Forwarded. */
export function forwardedHosts(header: (name: string) => string | null | undefined): string[] {
  const names = (header('x-forwarded-host') ?? '').split(',');
  for (const m of (header('forwarded') ?? '').matchAll(/(?:^|[;,])\s*host="?([^";,]*)"?/gi)) names.push(m[1]);
  return names.map((n) => n.trim()).filter(Boolean);
}

/**
 * The first name of the request this app does not answer to, or null when it may be served: the
 * Host (absent: an HTTP/1.0 client, no browser; let through) and, with TRUST_PROXY, every name the
 * proxy forwarded (forwardedHosts).
 */
export function foreignHost(header: (name: string) => string | null | undefined, settings: THostSettings): string | null {
  const host = header('host');
  if (host && !isAcceptedHost(host, settings)) return host;
  if (settings.trustProxy) for (const name of forwardedHosts(header)) if (!isAcceptedHost(name, settings)) return name;
  return null;
}

/** Whether an Origin (`scheme://host[:port]`) is the origin of a request that came to `host`: same name and port, a missing port being the scheme's default. */
export function isOriginOfHost(origin: URL, host: string): boolean {
  const h = splitHost(host.trim());
  const o = splitHost(origin.host);
  if (!h || !o) return false;
  const fallback = DEFAULT_PORTS[origin.protocol];
  return h.name === o.name && (h.port ?? fallback) === (o.port ?? fallback);
}
