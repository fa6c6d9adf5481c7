// An alert rule's kinds, windows and labels: plain values, no validation library, so the rule form
// (a client component) can show them without shipping zod to the browser (rule-schemas.ts validates).

export const ALERT_RULE_KINDS = [
  'failure_streak',
  'success_rate',
  'receiver_failures',
  'webhook_disabled',
  'about_to_disable',
  'webhook_paused',
  'grant_undelivered',
  'backup_failed',
] as const;
export type TAlertRuleKind = (typeof ALERT_RULE_KINDS)[number];
export const ALERT_WINDOWS = ['1h', '24h', '7d'] as const;
/** How a URL target is spoken to; a mailto: target is always 'email'. */
export const ALERT_TARGET_FORMATS = ['standard', 'slack'] as const;
export type TAlertTargetFormat = (typeof ALERT_TARGET_FORMATS)[number] | 'email';

/** Below this many attempts in the window a success rate says too little, and the rule does not fire. */
export const DEFAULT_MIN_ATTEMPTS = 10;
/** How far back a grant rule looks for grants (and never before the rule was made). */
export const GRANT_LOOKBACK_MS = 7 * 24 * 3600 * 1000;

export const KIND_LABELS: Record<TAlertRuleKind, string> = {
  failure_streak: 'Failure streak',
  success_rate: 'Success rate below',
  receiver_failures: 'Arrivals failing at the receiver',
  webhook_disabled: 'Webhook disabled',
  about_to_disable: 'About to be disabled',
  webhook_paused: 'Paused too long',
  grant_undelivered: 'Grant not delivered',
  backup_failed: 'Backup failed or too old',
};

/** Kinds about the console itself, not a webhook: no webhook scope. */
export const CONSOLE_KINDS: readonly TAlertRuleKind[] = ['backup_failed'];
