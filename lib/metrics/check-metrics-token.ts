import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '@/lib/http/errors';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * /metrics answers only with METRICS_TOKEN set (404 otherwise, as if absent) and then only to
 * `Authorization: Bearer <that token>`, compared in constant time (digests of equal length).
 */
export function checkMetricsToken(configured: string | undefined, authorization: string | null): void {
  if (!configured) throw new ApiError('not_found', 'Metrics are off on this instance (set METRICS_TOKEN to serve them).');
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
  if (!timingSafeEqual(digest(sent), digest(configured))) {
    throw new ApiError('unauthorized', 'Send Authorization: Bearer <METRICS_TOKEN> to read the metrics.', {
      headers: { 'www-authenticate': 'Bearer realm="metrics"' },
    });
  }
}
