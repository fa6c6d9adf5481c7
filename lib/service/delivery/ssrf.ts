import dns from 'node:dns';
import net from 'node:net';

// Deliveries go to addresses on the public internet only (unless DELIVERY_ALLOW_PRIVATE): the
// check runs on the address the socket actually connects to, so a name that resolves to a public
// address when checked and a private one when used (DNS rebinding) cannot get through.

const RANGES: [label: string, cidrs: string[]][] = [
  ['an unspecified', ['0.0.0.0/8', '::/128']],
  ['a loopback', ['127.0.0.0/8', '::1/128']],
  ['a private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '192.0.0.0/24', '198.18.0.0/15']],
  ['a link-local', ['169.254.0.0/16', 'fe80::/10']],
  ['a unique-local', ['fc00::/7', 'fec0::/10', '64:ff9b:1::/48']],
  ['a multicast', ['224.0.0.0/4', 'ff00::/8']],
  ['a reserved', ['240.0.0.0/4', '100::/64']],
];

const LISTS = RANGES.map(([label, cidrs]) => {
  const list = new net.BlockList();
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split('/');
    list.addSubnet(address, Number(prefix), net.isIPv6(address) ? 'ipv6' : 'ipv4');
  }
  return { label, list };
});

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] | null {
  let text = address.split('%')[0];
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    if (!net.isIPv4(tail[1])) return null;
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const fill = 8 - head.length - rest.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...rest];
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`), if it is one. */
function mappedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g || g.slice(0, 5).some((x) => x !== 0) || g[5] !== 0xffff) return null;
  return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.');
}

/** Why a delivery to this IP address is refused, or null when it is a public address. */
export function refusalReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = net.isIPv4(bare) ? bare : net.isIPv6(bare) ? mappedIpv4(bare) : null;
  const family = v4 ? 'ipv4' : net.isIPv6(bare) ? 'ipv6' : null;
  if (!family) return `${address} is not an IP address`;
  const target = v4 ?? bare;
  for (const { label, list } of LISTS) {
    if (list.check(target, family)) return `${address} is ${label} address`;
  }
  return null;
}

export class RefusedAddressError extends Error {
  readonly code = 'EREFUSEDADDRESS';
  constructor(host: string, reason: string) {
    super(`refused to deliver to ${host}: ${reason}; deliveries go to public addresses only (DELIVERY_ALLOW_PRIVATE=false)`);
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

/** A `lookup` for sockets: resolves as usual, then refuses the connection if any address is not public. */
export const guardedLookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err);
    for (const { address } of addresses) {
      const reason = refusalReason(address);
      if (reason) return callback(new RefusedAddressError(hostname, reason));
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    return callback(null, first.address, first.family);
  });
}) as unknown as net.LookupFunction;
