// The sentence a finished re-send of delivered messages ends with (the Recover card): what was
// re-sent counts only the messages that went out, so one the API refused (gone, the webhook
// disabled meanwhile) or one a stopped run never sent is counted apart. The run's id is not part
// of the sentence; the card shows it on its own. Pure, for the client component and unit tests.

export type TResendCounts = { messages: number; succeeded: number; failed: number; refused: number; skipped: number; verified: number; error: string | null };

export function resendSummary(run: TResendCounts): string {
  const sent = run.succeeded + run.failed;
  const parts = [`${sent} of ${run.messages} re-sent`, `${run.succeeded} answered 2xx`, `${run.verified} verified by the receiver`, `${run.failed} failed`];
  if (run.refused) parts.push(`${run.refused} not sent: the API refused ${run.refused === 1 ? 'it' : 'them'} (${run.error ?? 'no reason given'})`);
  if (run.skipped) parts.push(`${run.skipped} not sent: the receiver verified none of the first ${sent}, so the run stopped; fix it and run again`);
  return `Done: ${parts.join(' · ')}.`;
}
