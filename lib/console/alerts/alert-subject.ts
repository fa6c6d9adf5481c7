// What an alert is about, as the console names and links it: a webhook by its description or URL
// (as the evaluation read them when the alert fired; the id only when neither is known), a grant by
// its tracking id, each linked to its page. Pure: the banner, the alerts table and the JSON share it.

export type TAlertSubject = { kind: 'webhook' | 'grant' | 'message' | 'backup' | 'other'; id: string; label: string; href: string };

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export function alertSubject(subject: string, details: Record<string, unknown> = {}): TAlertSubject {
  const colon = subject.indexOf(':');
  const [kind, id] = colon < 0 ? ['', subject] : [subject.slice(0, colon), subject.slice(colon + 1)];
  if (kind === 'webhook') return { kind, id, label: text(details.description) || text(details.url) || id, href: `/webhooks/${encodeURIComponent(id)}` };
  if (kind === 'grant') {
    const trackingId = text(details.trackingId);
    return { kind, id, label: `grant ${trackingId || id}`, href: `/cases/${encodeURIComponent(trackingId || id)}` };
  }
  if (kind === 'message') return { kind, id, label: `message ${id}`, href: `/cases/${encodeURIComponent(id)}` };
  if (kind === 'backup') return { kind, id, label: id === 'off' ? 'scheduled backups (off)' : `backups in ${id}`, href: '/#backup-status' };
  return { kind: 'other', id, label: subject, href: '/alerts' };
}
