// A grant's status as the service reports it, explained beside its events: a support engineer reads
// "Initiated" next to a `grant.succeeded` event and asks which is true. Both are: the event says the
// grant was made (its payload is the grant as it was then, Initiated); the status is where the
// grant stands now. No event announces a later change of status. Pure.

export function grantStatusNote(status: string, source: 'api' | 'payload'): string {
  const now = source === 'api' ? 'the service’s status for this grant now' : 'as its message carried it (the service did not answer for the grant now)';
  switch (status) {
    case 'Initiated':
      return `Initiated — ${now}: the grant was made (that is what its grant.succeeded event says) and has not been completed or canceled since. grant.succeeded means the grant was made, not that it was completed.`;
    case 'Completed':
      return `Completed — ${now}. Its grant.succeeded event was sent when the grant was made, while it was Initiated; no event announces the completion.`;
    case 'Canceled':
      return `Canceled — ${now}: canceled after it was made. Its grant.succeeded event was sent when it was made; no event announces the cancelation, so a receiving system still counts it unless told.`;
    default:
      return `${status} — ${now}.`;
  }
}
