import { SpanStatusCode } from '@opentelemetry/api';
import { env } from '@/lib/env';
import { currentTraceparent, linkTo, withSpan } from '@/lib/telemetry/spans';
import type { TDeliveryJob } from './claim';
import { sendWebhook, type TSendResult } from './send-webhook';

/**
 * One signed POST of a prepared delivery, given DELIVERY_TIMEOUT_MS to answer: the worker renews its
 * lease while it is in flight (lease-keeper.ts), so the timeout may be longer than DELIVERY_LEASE_MS.
 */
export function attemptDelivery(job: TDeliveryJob & { target: NonNullable<TDeliveryJob['target']> }): Promise<TSendResult> {
  const { claim, target } = job;
  // A span per attempt (lib/telemetry), linked to the request that made the message.
  const attributes = {
    'webhook.id': claim.webhookId,
    'message.id': claim.messageId,
    'delivery.attempt': claim.scheduledAttemptCount + 1,
    'delivery.recover_run': claim.recoverRunId ?? '',
  };
  return withSpan(
    'webhook.attempt',
    attributes,
    async (span) => {
      const result = await sendWebhook({
        url: target.url,
        messageId: claim.messageId,
        body: target.payload,
        secrets: target.secrets,
        timeoutMs: env.DELIVERY_TIMEOUT_MS,
        // Off by default: receivers are not asked to take one. On, their side of the trace continues this attempt.
        traceparent: env.OTEL_DELIVERY_TRACEPARENT ? currentTraceparent() : null,
      });
      span.setAttributes({ 'http.response.status_code': result.statusCode, 'delivery.ok': result.ok, 'delivery.duration_ms': result.durationMs });
      if (!result.ok)
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.statusCode ? `answered ${result.statusCode}` : result.response.slice(0, 200) });
      return result;
    },
    linkTo(target.traceParent),
  );
}
