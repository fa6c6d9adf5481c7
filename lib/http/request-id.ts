export const REQUEST_ID_HEADER = 'x-request-id';

/** A new request id: `req_` and 32 hex digits. */
export function newRequestId(): string {
  return `req_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** A sane incoming X-Request-Id kept, otherwise a new one. */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && /^[A-Za-z0-9._:-]{8,128}$/.test(incoming) ? incoming : newRequestId();
}

/** Reuses a sane incoming X-Request-Id, otherwise makes one. */
export function requestIdOf(req: Request): string {
  return requestIdFrom(req.headers.get(REQUEST_ID_HEADER));
}
