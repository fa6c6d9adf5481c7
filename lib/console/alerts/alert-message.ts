import { env } from '@/lib/env';
import { alertWords, type TAlertNotice, type TWords } from './alert-facts';
import { alertSubject } from './alert-subject';
import { stageOf } from './incident-stage';
import { describeRule, type TAlertRow } from './rule-schemas';

// What an alert says, in each of the forms a rule's target takes: the signed Standard Webhooks
// body (docs/api-extensions.md, "Console alert POSTs"), Slack's incoming-webhook JSON (`text`, and
// `blocks` for the layout), and an e-mail (a subject and a plain-text body). One set of facts.

export type { TAlertEvent, TAlertNotice } from './alert-facts';

/** Where staff acknowledge or snooze it. */
const alertsUrl = (alert: TAlertRow) => `${env.CONSOLE_PUBLIC_URL}/alerts#alert-${alert.id}`;
/** The page of what it is about: the webhook's, the grant's case, the backups'. */
const pageUrl = (alert: TAlertRow) => `${env.CONSOLE_PUBLIC_URL}${alertSubject(alert.subject, alert.details as Record<string, unknown>).href}`;

// C0 and C1 controls (CR, LF, tab, ESC, NEL…) and the Unicode line and paragraph separators.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A value from data (a webhook's description or URL, a rule's name, an alert's details) as it enters
 * an alert's text: each control character a space, so a description cannot add lines to an e-mail
 * that look like its headers, nor to a Slack message. The templates' own line breaks are theirs.
 */
export const oneLine = (value: string): string => value.replace(CONTROLS, ' ');

/** oneLine over every string of a JSON value (the signed body's details). */
function oneLineDeep(value: unknown): unknown {
  if (typeof value === 'string') return oneLine(value);
  if (Array.isArray(value)) return value.map(oneLineDeep);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [oneLine(k), oneLineDeep(v)]));
  return value;
}

export function standardBody(notice: TAlertNotice): string {
  const { type, rule, alert, repeat } = notice;
  return JSON.stringify({
    type,
    timestamp: new Date().toISOString(),
    data: {
      alertId: alert.id,
      rule: {
        id: rule.id,
        name: oneLine(rule.name),
        kind: rule.kind,
        description: oneLine(describeRule(rule)),
        webhookId: rule.webhookId,
        environment: rule.environment,
      },
      subject: oneLine(alert.subject),
      // An incident rule's stage (about_to_disable: failing → disabled → enabled), null for the others.
      stage: rule.kind === 'about_to_disable' ? stageOf(alert.details) : null,
      firedAt: alert.firedAt.toISOString(),
      clearedAt: alert.clearedAt?.toISOString() ?? null,
      repeat,
      summary: words(notice).sentence,
      details: oneLineDeep(alert.details),
      consoleUrl: alertsUrl(alert),
      pageUrl: pageUrl(alert),
    },
  });
}

const words = (notice: TAlertNotice): TWords =>
  alertWords(notice, { timeZone: env.CONSOLE_TIME_ZONE, repeatMinutes: Math.round(env.ALERT_REPEAT / 60_000), clean: oneLine });

/** One line: "[disabled] Acme down: Donor CRM (production)". */
export function headline(notice: TAlertNotice): string {
  const w = words(notice);
  return `[${w.state}] ${oneLine(notice.rule.name)}: ${w.about} (${oneLine(notice.rule.environment)})`;
}

/** Slack's incoming-webhook message: `text` (notifications, and clients without blocks) and `blocks`, in words. */
export function slackBody(notice: TAlertNotice): string {
  const w = words(notice);
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const page = pageUrl(notice.alert);
  const buttons = [{ type: 'button', text: { type: 'plain_text', text: 'Open its page' }, url: page }];
  if (notice.type !== 'alert.resolved')
    buttons.push({ type: 'button', text: { type: 'plain_text', text: 'Acknowledge or snooze' }, url: alertsUrl(notice.alert) });
  return JSON.stringify({
    text: `${headline(notice)} — ${w.sentence} ${page}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escape(headline(notice))}*\n${escape(w.sentence)}` } },
      { type: 'section', fields: w.rows.slice(0, 10).map(([k, v]) => ({ type: 'mrkdwn', text: `*${escape(k)}*\n${escape(v)}` })) },
      { type: 'actions', elements: buttons },
    ],
  });
}

export function emailMessage(notice: TAlertNotice): { subject: string; text: string } {
  const w = words(notice);
  const lines = w.rows.map(([k, v]) => `${k}: ${v}`);
  const ack = notice.type !== 'alert.resolved' ? `\nAcknowledge or snooze it (stops the reminders): ${alertsUrl(notice.alert)}\n` : '';
  return { subject: headline(notice), text: `${headline(notice)}\n\n${w.sentence}\n\n${lines.join('\n')}\n\nOpen: ${pageUrl(notice.alert)}\n${ack}` };
}
