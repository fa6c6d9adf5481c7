// The reconciliation CSV's columns, in order, each with what it means: the CSV's header, the
// dictionary the console serves (GET /api/reconciliation/columns, and on the page), and the table
// in docs/GUIDE.md (a test holds the guide to this list). The CSV itself starts with its header
// row and carries no comment line: a spreadsheet would read a comment as the header or as data.

/** Grants are in US dollars: the service's amounts are integer cents, and its Grant names no currency. */
export const GRANT_CURRENCY = 'USD';

export const RECON_COLUMNS = [
  ['date', 'The day reconciled, YYYY-MM-DD: midnight to midnight in time_zone.'],
  ['time_zone', "The time zone of date and grant_created_local (the console's CONSOLE_TIME_ZONE), e.g. America/New_York."],
  ['tracking_id', "The grant's tracking code (GC-…), the one a donor reads out; its case is /cases/{tracking_id}."],
  ['grant_id', "The grant's id at the service (a UUID)."],
  ['grant_created_at', 'When the grant was made, in UTC (ISO 8601, ending in Z).'],
  ['grant_created_local', 'The same instant in time_zone, YYYY-MM-DD HH:MM:SS (a spreadsheet reads it as a date and time).'],
  ['grant_status', "The grant's status as the service reports it now: Initiated, Completed or Canceled."],
  ['fund_id', "The donor-advised fund sponsor the grant came from (the service's fundId)."],
  ['fund_name', "That fund sponsor's name."],
  ['nonprofit_id', "The nonprofit's id at the service (a UUID)."],
  ['ein', "The nonprofit's EIN as the IRS writes it, 12-3456789 (so a spreadsheet keeps it as text, with its leading zero)."],
  ['nonprofit_name', 'The name the nonprofit goes by.'],
  ['amount', "The grant's amount as the service reports it, in currency, with two decimals (25.00)."],
  ['fee', 'The processing fee the service charged (its feeAmount), in currency.'],
  [
    'fee_covered_by_donor',
    'yes: the donor added the fee on top, so the nonprofit receives amount whole (the fund gave amount + fee); no: the fee comes out of amount.',
  ],
  ['net', 'What the nonprofit receives, in currency: amount when fee_covered_by_donor is yes, else amount − fee.'],
  ['currency', "The ISO 4217 currency of amount, fee and net: USD (the service's amounts are US cents)."],
  ['amount_cents', "amount in integer cents, as the service's JSON carries it (for programs)."],
  [
    'first_row_of_grant',
    "yes on the first of a grant's rows, no on the others. A grant has one row per webhook, so total the money over the rows where this is yes (SUMIF) to count each grant once.",
  ],
  ['webhook_id', 'The webhook (subscription) this row is about; empty when no webhook was subscribed to grant.succeeded when the grant was made.'],
  ['webhook_url', 'The address that webhook delivers to.'],
  [
    'service_status',
    "The service's delivery of the grant to this webhook: success, pending (a retry is due), sending, failed (it gave up), or not queued (never sent to this webhook).",
  ],
  ['delivered', "yes when service_status is success (the webhook's endpoint answered 2xx), else no."],
  ['attempts', 'How many times the service sent it, retries included.'],
  ['last_response_status', 'The HTTP status the newest attempt got (0: no response; empty before the first attempt).'],
  [
    'console_receiver',
    "yes when the webhook delivers to one of this console's receivers, so received, verified and arrivals are known; no: this console cannot see that endpoint, and they are empty.",
  ],
  ['received', "yes when at least one copy arrived at this console's receiver (whatever it answered), else no."],
  ['verified', 'yes when a copy that arrived carried a valid signature, else no.'],
  [
    'arrivals',
    'How many copies arrived at the receiver: each retry is one, an arrival answered 500 in a drill too (suspicious copies are counted apart). One grant is one donation however many arrivals it had.',
  ],
  [
    'state',
    "The reconciliation in the timeline's words: delivered-and-received, received-bad-signature, received-answered-error, sent-not-received, network-error, not-sent-yet, not-sent, duplicate, recording, not-observed; no-webhook for a grant no webhook was subscribed for. A paused webhook's undelivered grants are not-sent-yet: they wait for it to be resumed.",
  ],
  [
    'difference',
    'yes when this grant × webhook differs (the page lists its grant under "With a difference"), no when it reconciles: delivered and received, or delivered to an endpoint this console cannot see, or no webhook, or waiting while its webhook is paused (not sent yet).',
  ],
  ['suspicious_arrivals', 'Copies beside a verified delivery whose signature did not verify (not from the service): never a difference; do not resend.'],
  ['donor_first_name', "The donor's first name; [redacted] unless an operator asked for includeDonor=1 (audited)."],
  ['donor_last_name', "The donor's last name; [redacted] likewise."],
  ['donor_email', "The donor's e-mail address; [redacted] likewise."],
] as const satisfies readonly (readonly [string, string])[];

export const CSV_COLUMNS: readonly string[] = RECON_COLUMNS.map(([name]) => name);

/** The dictionary as GET /api/reconciliation/columns answers it. */
export const columnDictionary = () => ({ currency: GRANT_CURRENCY, columns: RECON_COLUMNS.map(([name, meaning]) => ({ name, meaning })) });
