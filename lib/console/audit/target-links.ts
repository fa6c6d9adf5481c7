import { ID_PREFIX } from '@/lib/constants';

// Where each target of an audit entry is looked at in the console, by the shape of its id and, for
// the console's own UUIDs (receivers, alert rules), by the action: ep_ → the webhook, msg_ → the
// case, an attempt → its message under its webhook, a recover run → its webhook, test_ → the
// Connect's grants, a receiver → its page, an alert rule → the alerts, an alert → its row, a receipt (receipt.*) → its page. Pure, for the audit page.

export type TAuditTargetLink = { id: string; href: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const enc = encodeURIComponent;

export function auditTargetLinks(action: string, target: string): TAuditTargetLink[] {
  const ids = target.split(' ').filter(Boolean);
  const webhook = ids.find((t) => t.startsWith(ID_PREFIX.webhook));
  const message = ids.find((t) => t.startsWith(ID_PREFIX.message));
  const hrefOf = (id: string): string | null => {
    if (id.startsWith(ID_PREFIX.webhook)) return `/webhooks/${enc(id)}`;
    if (id.startsWith(ID_PREFIX.message)) return `/cases/${enc(id)}`;
    if (id.startsWith(ID_PREFIX.attempt)) return webhook && message ? `/webhooks/${enc(webhook)}/messages/${enc(message)}` : null;
    if (id.startsWith(ID_PREFIX.recoverRun)) return webhook ? `/webhooks/${enc(webhook)}` : null;
    if (id.startsWith(ID_PREFIX.connect)) return `/connects/${enc(id)}/grants`;
    if (/^GC-[0-9A-Z]{6}$/.test(id)) return `/cases/${enc(id)}`;
    if (/^\d{1,15}$/.test(id) && action.startsWith('receipt.')) return `/receipts/${id}`;
    if (UUID.test(id) && action.startsWith('alert.')) return `/alerts#alert-${enc(id)}`;
    if (UUID.test(id)) return action.startsWith('alert-rule.') ? '/alerts' : `/receivers/${enc(id)}`;
    return null;
  };
  return ids.map((id) => ({ id, href: hrefOf(id) }));
}
