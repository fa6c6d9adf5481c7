import { ApiError } from '@/lib/http/errors';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The Idempotency-Key header (1–255 visible ASCII characters), or undefined when absent. */
export function parseIdempotencyKey(headers: Headers): string | undefined {
  const value = headers.get(IDEMPOTENCY_KEY_HEADER);
  if (value === null) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw new ApiError('bad_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice).', {
      errors: [{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
    });
  }
  return value;
}
