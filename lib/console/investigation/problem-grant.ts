// The grant a problem row is about, from its message: tracking id, donor and amount, read from the
// payload (grant.* events carry the grant) or, when the service listed the message without it, the
// message's tags (tracking id and e-mail; no amount). The donor's e-mail is masked (a•••@example.org):
// the row is for recognising a ticket's grant, the case page shows the rest. Pure.

export type TProblemGrant = { trackingId: string | null; donor: string | null; amount: number | null };

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const tagValue = (tags: readonly string[], prefix: string) => text(tags.find((t) => t.startsWith(prefix))?.slice(prefix.length));

/** `ada@example.org` → `a•••@example.org`; anything without an @ is masked whole. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${[...email.slice(0, at)][0]}•••${email.slice(at)}`;
}

export function problemGrant(message: { eventType?: string; payload?: unknown; tags?: readonly string[] }): TProblemGrant | null {
  const payload = message.payload as { type?: unknown; data?: Record<string, unknown> } | null | undefined;
  const type = message.eventType ?? (typeof payload?.type === 'string' ? payload.type : '');
  if (!type.startsWith('grant.')) return null;
  const data = payload?.data ?? {};
  const tags = message.tags ?? [];
  const email = text(data.email) ?? tagValue(tags, 'donor:');
  const amount = typeof data.amount === 'number' && Number.isFinite(data.amount) ? data.amount : null;
  const grant = { trackingId: text(data.trackingId) ?? tagValue(tags, 'tracking:'), donor: email ? maskEmail(email) : null, amount };
  return grant.trackingId || grant.donor || grant.amount !== null ? grant : null;
}
