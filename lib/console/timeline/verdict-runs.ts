// The verdicts of a message's arrivals at one receiver, in arrival order, as runs: three valid
// arrivals then an invalid one read "✓ valid ×3, invalid signature", never "✓ valid ×4" (the
// newest verdict alone hid that a copy had failed). Pure: the timeline's cells and cards use it.

export type TVerdictRun = { verdict: string; reason: string; count: number; firstId: number };

/** Consecutive arrivals with the same verdict make one run (its reason is the newest one's). */
export function verdictRuns(receipts: readonly { id: number; verdict: string; verdictReason: string }[]): TVerdictRun[] {
  const runs: TVerdictRun[] = [];
  for (const r of receipts) {
    const last = runs[runs.length - 1];
    if (last && last.verdict === r.verdict) {
      last.count++;
      last.reason = r.verdictReason;
    } else runs.push({ verdict: r.verdict, reason: r.verdictReason, count: 1, firstId: r.id });
  }
  return runs;
}
