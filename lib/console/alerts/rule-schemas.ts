import { z } from 'zod';
import type * as schema from '@/lib/db/schema/console';
import { ALERT_RULE_KINDS, ALERT_TARGET_FORMATS, ALERT_WINDOWS, DEFAULT_MIN_ATTEMPTS, type TAlertRuleKind } from './rule-kinds';

// What an alert rule is: its kinds, their thresholds, and the input a staff member gives.

export {
  ALERT_RULE_KINDS,
  ALERT_TARGET_FORMATS,
  ALERT_WINDOWS,
  DEFAULT_MIN_ATTEMPTS,
  GRANT_LOOKBACK_MS,
  KIND_LABELS,
  type TAlertRuleKind,
  type TAlertTargetFormat,
} from './rule-kinds';

export type TAlertRuleRow = typeof schema.alertRules.$inferSelect;
export type TAlertRow = typeof schema.alerts.$inferSelect;

/**
 * A sentence for the rule, as lists and the alert's POST say it. `webhookName` (its description or
 * URL, where the caller knows it) names the rule's webhook instead of its id.
 */
export function describeRule(rule: Pick<TAlertRuleRow, 'kind' | 'threshold' | 'window' | 'minAttempts' | 'webhookId'>, webhookName?: string): string {
  const scope = rule.webhookId ? `webhook ${webhookName ? `“${webhookName}”` : rule.webhookId}` : 'any webhook';
  switch (rule.kind as TAlertRuleKind) {
    case 'failure_streak':
      return `${scope} fails ${rule.threshold} attempts or more in a row`;
    case 'success_rate':
      return `${scope} succeeds on less than ${rule.threshold}% of its attempts over ${rule.window ?? '24h'} (at least ${rule.minAttempts} attempts)`;
    case 'receiver_failures':
      return `${scope} has ${rule.threshold} arrivals or more over ${rule.window ?? '24h'} at this console's receiver that failed the signature check or were answered with an error`;
    case 'webhook_disabled':
      return `${scope} is disabled`;
    case 'about_to_disable':
      return `${scope} has been failing for ${rule.threshold}% of the time after which the service disables it`;
    case 'webhook_paused':
      return `${scope} has been paused for ${rule.threshold} h or more`;
    case 'grant_undelivered':
      return `a grant's message is not delivered to ${scope} within ${rule.threshold} min`;
    case 'backup_failed':
      return `a scheduled backup of the embedded store fails, or the newest is older than ${rule.threshold} h`;
    default:
      return rule.kind;
  }
}

const ZWebhookId = z
  .string()
  .trim()
  .regex(/^ep_[A-Za-z0-9]{1,60}$/, { message: 'must be a webhook id (ep_…), or empty for every webhook' });

const number = (message: string) => z.coerce.number({ message }).refine(Number.isFinite, { message });

/** A new rule. Thresholds by kind: a streak of 1–1000; a rate of 1–100 %; 1–100000 failed arrivals; 0.05–10080 minutes (3 s to 7 days). */
export const ZAlertRuleInput = z
  .object({
    name: z.string({ message: 'is required' }).trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' }),
    kind: z.enum(ALERT_RULE_KINDS, { message: `must be one of: ${ALERT_RULE_KINDS.join(', ')}` }),
    webhookId: z.union([z.literal('').transform(() => null), z.null(), ZWebhookId]).default(null),
    threshold: number('must be a number').default(0),
    window: z.enum(ALERT_WINDOWS, { message: 'must be one of: 1h, 24h, 7d' }).default('24h'),
    minAttempts: z.coerce
      .number({ message: 'must be a whole number' })
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be from 1 to 10000' })
      .max(10000, { message: 'must be from 1 to 10000' })
      .default(DEFAULT_MIN_ATTEMPTS),
    targetUrl: z.string({ message: 'is required' }).trim().min(1, { message: 'is required' }).max(2048, { message: 'must be at most 2048 characters' }),
    targetFormat: z
      .union([z.literal('').transform(() => 'standard' as const), z.enum(ALERT_TARGET_FORMATS, { message: 'must be standard or slack' })])
      .default('standard'),
    enabled: z.boolean().default(true),
  })
  .superRefine((r, ctx) => {
    const bad = (message: string) => ctx.addIssue({ code: 'custom', path: ['threshold'], message });
    if (r.kind === 'failure_streak' && !(Number.isInteger(r.threshold) && r.threshold >= 1 && r.threshold <= 1000))
      bad('a streak is a whole number of attempts from 1 to 1000');
    if (r.kind === 'success_rate' && !(r.threshold > 0 && r.threshold <= 100)) bad('a success rate is a percentage above 0 and at most 100');
    if (r.kind === 'receiver_failures' && !(Number.isInteger(r.threshold) && r.threshold >= 1 && r.threshold <= 100_000))
      bad('a number of arrivals is a whole number from 1 to 100000');
    if (r.kind === 'about_to_disable' && !(Number.isInteger(r.threshold) && r.threshold >= 1 && r.threshold <= 99))
      bad('a share of the time before disabling is a whole percentage from 1 to 99');
    if (r.kind === 'grant_undelivered' && !(r.threshold >= 0.05 && r.threshold <= 10080)) bad('minutes from 0.05 (3 s) to 10080 (7 days)');
    if (r.kind === 'webhook_paused' && !(r.threshold >= 0.01 && r.threshold <= 8760)) bad('hours from 0.01 (36 s) to 8760 (a year)');
    if (r.kind === 'backup_failed' && !(r.threshold >= 0.01 && r.threshold <= 8760)) bad('hours from 0.01 (36 s) to 8760 (a year)');
    if (r.kind === 'backup_failed' && r.webhookId)
      ctx.addIssue({ code: 'custom', path: ['webhookId'], message: 'a backup rule is about the console, not a webhook: leave it empty' });
  });
export type TAlertRuleInput = z.input<typeof ZAlertRuleInput>;

export const ZAlertRulePatch = z.object({ enabled: z.boolean({ message: 'must be true or false' }) });
