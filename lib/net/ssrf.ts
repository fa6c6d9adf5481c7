import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

// Deliveries go to global unicast addresses only (unless DELIVERY_ALLOW_PRIVATE): the check runs on
// the address the socket actually connects to, so a name that resolves to a public address when
// checked and a private one when used (DNS rebinding) cannot get through.
//
// The classification is ipaddr.js's `range()`, which follows the IANA IPv4 and IPv6 Special-Purpose
// Address Registries: only its 'unicast' is allowed, every named range (private, loopback,
// link-local, TEST-NETs and documentation, CGNAT, benchmarking, reserved, multicast, broadcast,
// AS112/AMT anycast, ORCHID, NAT64, 6to4, Teredo, discard, SRv6…) is refused. On top of it:
// - IPv4-mapped `::ffff:a.b.c.d` is unwrapped and the IPv4 address classified (a dual-stack socket
//   reaches that IPv4 address), so `::ffff:8.8.8.8` is allowed and `::ffff:127.0.0.1` is not.
// - NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16), Teredo (2001::/32) and IPv4-translated
//   (::ffff:0:0:0/96) are refused outright, whatever IPv4 address they carry (the carried address is
//   only named in the reason). A webhook receiver has no business behind a tunnel or translator
//   prefix, and a translator would carry the request to whatever the embedded address is. (An
//   IPv6-only host behind DNS64 therefore needs a receiver with a real AAAA record.)
// - IPv6 outside 2000::/3 is refused: the IANA IPv6 Address Space registry allocates 2000::/3 alone
//   as Global Unicast; everything else is ULA, link-local, multicast or "Reserved by IETF", which
//   ipaddr.js reports as 'unicast' for the unnamed parts. This covers IPv4-compatible `::a.b.c.d`
//   (deprecated by RFC 4291 §2.5.5.1, refused outright whatever it carries), the rest of ::/8 and
//   the dummy prefix 100:0:0:1::/64 (RFC 9780), which ipaddr.js does not name.
// Every IPv4 special-purpose block already has a non-unicast name in ipaddr.js (checked per range by
// tests/unit/ssrf.test.ts), so no IPv4 list is kept here.

/** IANA IPv6 Address Space registry: 2000::/3 is the only block allocated as Global Unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** RFC 4291 §2.5.5.1 IPv4-compatible addresses (deprecated); inside ::/8, "Reserved by IETF". */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
/** RFC 6052 well-known NAT64 prefix (the IPv4 address is the last 32 bits). */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** How a refusal names each range ("<address> is …"). */
const LABELS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a private address (carrier-grade NAT, 100.64.0.0/10)',
  private: 'a private address',
  reserved: 'a reserved or documentation address (IANA special-purpose)',
  as112: 'an AS112 anycast address',
  amt: 'an AMT anycast address',
  uniqueLocal: 'a unique-local address',
  deprecatedSiteLocal: 'a site-local address (deprecated)',
  discard: 'a discard-only address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  benchmarking: 'a benchmarking address',
  as112v6: 'an AS112 anycast address',
  deprecatedOrchid: 'an ORCHID address',
  orchid2: 'an ORCHIDv2 address',
  droneRemoteIdProtocolEntityTags: 'a drone remote ID (DET) address',
  segmentRouting: 'an SRv6 SID address',
  ipv4Compatible: 'an IPv4-compatible address (deprecated)',
  reservedV6: 'a reserved IPv6 address (outside the global unicast 2000::/3)',
};

export type TAddressClass = {
  /** 'unicast' (allowed), an ipaddr.js range name, or one of ours: 'ipv4Compatible', 'reservedV6'. */
  range: string;
  /** For an IPv4-mapped address, the IPv4 address that was classified in its place. */
  mapped?: string;
  /** For NAT64 (/96), 6to4, Teredo, IPv4-translated and IPv4-compatible, the IPv4 address carried (named in the reason only). */
  carries?: string;
};

/**
 * An IPv6 address as ipaddr.js should read it. The dotted tail is rewritten into two hex groups
 * first: ipaddr.js reads `::a.b.c.d` as the IPv4-*mapped* `::ffff:a.b.c.d`, whereas the socket
 * connects to the IPv4-*compatible* `::a.b.c.d`, and the zone (`%eth0`) is dropped (it does not
 * change the range, and ipaddr.js only takes alphanumeric zones).
 */
function parseV6(address: string): ipaddr.IPv6 {
  const text = address.split('%')[0].replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) => {
    const [w, x, y, z] = [a, b, c, d].map(Number);
    return `${((w << 8) | x).toString(16)}:${((y << 8) | z).toString(16)}`;
  });
  return ipaddr.IPv6.parse(text);
}

const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');

/** The IPv4 address a transition address carries, for the reason only (never used to allow). */
function carriedIpv4(ip: ipaddr.IPv6, range: string): string | undefined {
  const p = ip.parts;
  if (range === '6to4') return v4(p[1], p[2]); // 2002:AABB:CCDD::/48 (RFC 3056 §2)
  if (range === 'teredo') return v4(p[6] ^ 0xffff, p[7] ^ 0xffff); // client address, inverted (RFC 4380 §4)
  if (range === 'ipv4Compatible' || range === 'rfc6145') return v4(p[6], p[7]);
  if (range === 'rfc6052' && ip.match(NAT64_WELL_KNOWN)) return v4(p[6], p[7]); // RFC 6052 §2.2, /96
  return undefined; // 64:ff9b:1::/48: where the IPv4 address sits depends on the local prefix length
}

/**
 * The class of an IP address (an IPv4 dotted quad or an IPv6 address, brackets and zone allowed),
 * or null when the text is not one. Only `range === 'unicast'` may be delivered to.
 */
export function classifyAddress(address: string): TAddressClass | null {
  const bare = address.replace(/^\[|\]$/g, '');
  // Node's own parser decides what is an address (the socket uses the same rules); ipaddr.js's
  // laxer IPv4 forms (octal, hex, `127.1`) never get to it.
  const family = net.isIP(bare);
  if (family === 4) return { range: ipaddr.IPv4.parse(bare).range() };
  if (family !== 6) return null;
  let ip: ipaddr.IPv6;
  try {
    ip = parseV6(bare);
  } catch {
    return null; // Node accepts it but ipaddr.js does not: refused as unreadable
  }
  if (ip.isIPv4MappedAddress()) {
    const mapped = ip.toIPv4Address();
    return { range: mapped.range(), mapped: mapped.toString() };
  }
  let range: string = ip.range();
  if (range === 'unicast' && !ip.match(GLOBAL_UNICAST_V6)) range = ip.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : 'reservedV6';
  const carries = carriedIpv4(ip, range);
  return carries ? { range, carries } : { range };
}

/** Why a delivery to this IP address is refused, or null when it is a global unicast address. */
export function refusalReason(address: string): string | null {
  const cls = classifyAddress(address);
  if (!cls) return `${address} is not an IP address`;
  if (cls.range === 'unicast') return null;
  const label = LABELS[cls.range] ?? `a non-global address (${cls.range})`;
  if (cls.mapped) return `${address} is ${label} (IPv4-mapped ${cls.mapped})`;
  if (cls.carries) return `${address} is ${label} (carrying ${cls.carries})`;
  return `${address} is ${label}`;
}

export class RefusedAddressError extends Error {
  readonly code = 'EREFUSEDADDRESS';
  constructor(host: string, reason: string, rule = 'deliveries go to public addresses only (DELIVERY_ALLOW_PRIVATE=false)') {
    super(`refused to deliver to ${host}: ${reason}; ${rule}`);
    this.name = 'RefusedAddressError';
  }
}

/** A refusal for a URL whose host is an IP literal (sockets skip the lookup for those), else null. */
export function refusedLiteralHost(hostname: string): RefusedAddressError | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (!net.isIP(bare)) return null;
  const reason = refusalReason(bare);
  return reason ? new RefusedAddressError(hostname, reason) : null;
}

/**
 * A `lookup` for sockets: resolves as usual, then refuses the connection if `refuse` names a reason
 * for any of the addresses.
 */
export function lookupGuard(refuse: (address: string) => string | null, rule?: string): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      for (const { address } of addresses) {
        const reason = refuse(address);
        if (reason) return callback(new RefusedAddressError(hostname, reason, rule));
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return callback(null, first.address, first.family);
    });
  }) as unknown as net.LookupFunction;
}

/** A `lookup` for sockets: resolves as usual, then refuses the connection if any address is not public. */
export const guardedLookup = lookupGuard(refusalReason);

/**
 * The stricter rule for URLs staff type into the console (alert targets): a global unicast address,
 * or loopback when `allowLoopback` (the test and local setups, DELIVERY_ALLOW_PRIVATE=true); every
 * other range (private, link-local, CGNAT, …) is refused whatever the setting, since a console on an
 * internal network must not be turned into a probe of it.
 */
export function loopbackOnlyRefusal(address: string, allowLoopback: boolean): string | null {
  const cls = classifyAddress(address);
  if (allowLoopback && cls?.range === 'loopback') return null;
  return refusalReason(address);
}
