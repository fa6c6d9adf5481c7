export const REQUEST_ID_HEADER = 'x-request-id';

/** Reuses a sane incoming X-Request-Id, otherwise makes one. */
export function requestIdOf(req: Request): string {
  const incoming = req.headers.get(REQUEST_ID_HEADER);
  return incoming && /^[A-Za-z0-9._:-]{8,128}$/.test(incoming) ? incoming : `req_${crypto.randomUUID().replaceAll('-', '')}`;
}
