import 'server-only';
import type { ConnectApi, TMessage } from '@/lib/console/connect-api';
import type { TExplainTimes } from './explain-delivery';
import { joinDelivery, receiversOfDelivery, type TJoinDelivery, type TSibling } from './join-delivery';
import { receiptSummariesAt } from '../receivers/receipts-by-message';
import type { TReceiver } from '../receivers';
import type { TConsoleAddresses } from '../receivers/receiver-urls';
import type { TTimelineMessage, TTimelineWebhook } from './timeline-types';
import { webhookSecretFingerprint } from '../webhooks/webhook-settings';
import { isoTime } from './iso-time';

/**
 * One webhook's messages joined with their deliveries and receipts. A failed signature check is
 * explained with both secrets' fingerprints: one more call (the webhook's secret), only then.
 */
export async function joinMessages(
  api: ConnectApi,
  input: {
    webhookId: string;
    messages: TMessage[];
    deliveries: TJoinDelivery[];
    webhook: TTimelineWebhook | null;
    webhookUrl: string;
    receivers: TReceiver[];
    addresses: TConsoleAddresses;
    /** The account's other webhooks (a receiver they share splits its arrivals by address). */
    siblings: readonly TSibling[];
    /** When the caller began reading the API: receipts stored later are newer than its answer. */
    asOf: Date;
    now: Date;
    times?: TExplainTimes;
  },
): Promise<TTimelineMessage[]> {
  // The receipts at every receiver these deliveries went to (or, unsent, would go to), in one
  // query. All of them, read after the API: a receipt the API's answer already counts is never cut.
  const urls = [input.webhookUrl, ...input.deliveries.flatMap((d) => d.attempts.map((a) => a.url))].filter(Boolean);
  const receipts = await receiptSummariesAt(
    input.messages.map((m) => m.id),
    receiversOfDelivery([...new Set(urls)], '', input.receivers, input.addresses).map((r) => r.id),
  );
  const join = (webhookFingerprint?: string | null) =>
    input.messages.map((m, i): TTimelineMessage => {
      const delivery = input.deliveries[i];
      // Named one by one rather than spread from `input`: a spread per message was ~4 % of an export's CPU.
      const joined = joinDelivery({
        message: m,
        delivery,
        receipts,
        webhookFingerprint,
        webhook: input.webhook,
        webhookUrl: input.webhookUrl,
        receivers: input.receivers,
        addresses: input.addresses,
        siblings: input.siblings,
        asOf: input.asOf,
        now: input.now,
        times: input.times,
      });
      return {
        id: m.id,
        eventType: m.eventType,
        timestamp: isoTime(m.timestamp),
        status: m.status,
        nextAttempt: delivery.nextAttempt,
        retriesStopped: delivery.retriesStopped ?? null,
        attemptCount: m.attemptCount,
        lastAttempt: delivery.attempts[delivery.attempts.length - 1] ?? null,
        receipts: joined.receipts,
        reconciliation: joined.reconciliation,
        explanation: joined.explanation,
        ...(joined.suspiciousArrivals ? { suspiciousArrivals: joined.suspiciousArrivals } : {}),
      };
    });
  const joined = join();
  if (!joined.some((m) => m.reconciliation === 'received-bad-signature')) return joined;
  return join(await webhookSecretFingerprint(api, input.webhookId));
}
