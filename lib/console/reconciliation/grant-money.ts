import type { TGrantDeliveryLine } from '@/lib/console/connect-api/types';

// A grant's money as the reconciliation reports it, in cents: its amount, the service's fee, and
// what the nonprofit receives — the amount whole when the donor covered the fee (the fund gave
// amount + fee), else the amount less the fee (as the donor's thanks page says it).

export type TGrantMoney = { amount: number; fee: number; net: number; covered: boolean };

export function grantMoney(g: Pick<TGrantDeliveryLine, 'amount' | 'feeAmount' | 'coveredFees'>): TGrantMoney {
  return { amount: g.amount, fee: g.feeAmount, net: g.coveredFees ? g.amount : g.amount - g.feeAmount, covered: g.coveredFees };
}
