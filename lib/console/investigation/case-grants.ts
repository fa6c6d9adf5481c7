import 'server-only';
import type { ConnectApi, TGrant } from '@/lib/console/connect-api';
import type { TCaseGrant } from './case-types';
import { grantStatusNote } from './grant-status';

// The grants of a case: as the service has them now, else as the message's payload carried them;
// a donor field the service erased is shown as erased.

export function grantOfPayload(payload: unknown): TGrant | null {
  const p = payload as { type?: string; data?: Record<string, unknown> } | null;
  if (!p || p.type !== 'grant.succeeded' || !p.data || typeof p.data.id !== 'string') return null;
  return p.data as unknown as TGrant;
}

/** What the card shows of a donor field the service erased (it holds `erased:<SHA-256>`). */
const ERASED = 'erased';
const isErased = (v: string | null | undefined) => typeof v === 'string' && v.startsWith('erased:');

/** `erasedAt`: when its message's payload was erased, if the case saw it (else the grant's last update, which the erasure was). */
function toCaseGrant(g: TGrant, source: TCaseGrant['source'], erasedAt?: string): TCaseGrant {
  const erased = isErased(g.firstName) || isErased(g.lastName) || isErased(g.email);
  const donorField = (v: string) => (erased ? ERASED : v);
  return {
    id: g.id,
    trackingId: g.trackingId,
    amount: g.amount,
    feeAmount: g.feeAmount,
    status: g.status,
    statusNote: grantStatusNote(g.status, source),
    fundId: g.fundId,
    fundName: g.fundName,
    firstName: donorField(g.firstName),
    lastName: donorField(g.lastName),
    email: donorField(g.email),
    connectId: g.connectId,
    createdAt: g.createdAt,
    erasedAt: erased ? (erasedAt ?? g.updatedAt) : null,
    source,
  };
}

export async function currentGrant(api: ConnectApi, id: string, fallback: TGrant | null, erasedAt?: string): Promise<TCaseGrant | null> {
  const now = await api.get('/v1/grants/{id}', { params: { path: { id } } }).catch(() => null);
  if (now) return toCaseGrant(now, 'api', erasedAt);
  return fallback ? toCaseGrant(fallback, 'payload') : null;
}
