// Headers that describe one connection, not the message (RFC 9110 §7.6.1), and those the client
// recomputes (host, content-length): a request sent again anywhere — a forward, a copied cURL —
// leaves them out and lets its own connection set them.
export const HOP_BY_HOP_HEADERS: readonly string[] = [
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
];

export const isHopByHop = (name: string): boolean => HOP_BY_HOP_HEADERS.includes(name.toLowerCase());
