// The "Last success" figure of a webhook's health. A 2xx the receiver did not verify (a bad
// signature this console's receiver still answered 2xx) is no success: when every arrival in the
// window failed verification (the success rate counts verified arrivals, so it is 0 %), the
// figure says so instead of "14 s ago" beside 0 %. Pure, for the component and unit tests.

export type TLastSuccess = { label: string; at: string | null; note: string | null };

export function lastSuccessFigure(lastSuccessAt: string | null, rate: number | null, unverifiedAccepted = 0): TLastSuccess {
  if (unverifiedAccepted > 0 && rate === 0) {
    return { label: 'Last verified success', at: null, note: 'none in this window: every 2xx arrival failed verification at the receiver' };
  }
  return { label: 'Last success', at: lastSuccessAt, note: null };
}
