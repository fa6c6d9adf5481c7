import { SpanStatusCode } from '@opentelemetry/api';
import { withSpan } from '@/lib/telemetry/spans';
import { emailMessage, slackBody, standardBody, type TAlertNotice } from './alert-message';
import { stageOf } from './incident-stage';
import { sendAlertEmail } from './send-alert-email';
import { sendAlert, type TAlertPostResult } from './send-alert';

// One notice of an alert to its rule's target, in the rule's format: an e-mail (mailto:), Slack's
// incoming-webhook JSON, or the signed Standard Webhooks POST. Each notice has its own id —
// `alert_<alert id>_fired`, `…_fired_<n>` for the n-th reminder, `…_disabled` for an incident's escalation, `…_resolved` — so a receiver that
// de-duplicates by webhook-id keeps reminders apart. Never throws.

export function noticeId({ alert, type, repeat }: Pick<TAlertNotice, 'alert' | 'type' | 'repeat'>): string {
  const base = `alert_${alert.id.replaceAll('-', '')}_${type === 'alert.fired' ? 'fired' : type === 'alert.escalated' ? stageOf(alert.details) : 'resolved'}`;
  return repeat > 0 && type === 'alert.fired' ? `${base}_${repeat}` : base;
}

export async function deliverAlert(notice: TAlertNotice): Promise<TAlertPostResult> {
  const { rule } = notice;
  const messageId = noticeId(notice);
  // A span per notice sent (lib/telemetry): which rule, which kind of target, and how it went.
  const attributes = {
    'alert.rule.id': rule.id,
    'alert.rule.kind': rule.kind,
    'alert.event': notice.type,
    'alert.target': rule.targetFormat,
    'message.id': messageId,
  };
  return withSpan('alert.send', attributes, async (span) => {
    const result =
      rule.targetFormat === 'email'
        ? await sendAlertEmail({ url: rule.targetUrl, messageId, ...emailMessage(notice) })
        : await sendAlert({
            url: rule.targetUrl,
            secret: rule.targetFormat === 'slack' ? null : rule.secret,
            messageId,
            body: rule.targetFormat === 'slack' ? slackBody(notice) : standardBody(notice),
          });
    span.setAttribute('alert.status', result.status);
    if (result.error) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
    return result;
  });
}
