// The closed list of staff actions the audit log records (console.audit_log.action).

export const AUDIT_ACTIONS = [
  'login',
  'logout',
  'webhook.create',
  'webhook.track',
  'webhook.disable',
  'webhook.enable',
  'webhook.test',
  'message.resend',
  'webhook.recover',
  'webhook.retry-now',
  'webhook.resend-delivered',
  'webhook.secret.rotate',
  'receiver.secret.adopt',
  'receiver.create',
  'receiver.update',
  'receiver.delete',
  'alert-rule.create',
  'alert-rule.update',
  'alert-rule.delete',
  'export',
  'donor.erase',
] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];
