// The sandbox's fixed list of donor-advised fund sponsors, and the grant rules around money.

export const DAF_FUNDS = [
  { id: 'fidelity-charitable', name: 'Fidelity Charitable' },
  { id: 'schwab-charitable', name: 'Schwab Charitable' },
  { id: 'vanguard-charitable', name: 'Vanguard Charitable' },
  { id: 'national-philanthropic-trust', name: 'National Philanthropic Trust' },
  { id: 'american-endowment-foundation', name: 'American Endowment Foundation' },
] as const;

export function findFund(fundId: string): (typeof DAF_FUNDS)[number] | undefined {
  return DAF_FUNDS.find((f) => f.id === fundId);
}

/** Amounts are integer cents. */
export const GRANT_MIN_AMOUNT = 100;
export const GRANT_MAX_AMOUNT = 100_000_000;

/** The processing fee, in basis points of the amount (2.9 %). */
export const FEE_BASIS_POINTS = 290;

export function feeFor(amount: number): number {
  return Math.round((amount * FEE_BASIS_POINTS) / 10_000);
}

/** Tracking ids: `GC-` and 6 characters a person can read aloud (no 0/O, 1/I/L). */
export const TRACKING_ID_PREFIX = 'GC-';
export const TRACKING_ID_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const TRACKING_ID_LENGTH = 6;

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
