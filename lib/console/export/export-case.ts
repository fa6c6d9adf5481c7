import 'server-only';
import type { TCase } from '@/lib/console/case-types';
import { redactValue } from './redact-export';

// A case (lib/console/build-case, exactly what the case page shows: grants, each message at every
// webhook with its attempts, receipts, verdicts, reconciliation and plain explanation) as a JSON
// evidence bundle for a ticket.

export type TCaseBundle = {
  kind: 'giving-connect.case-bundle';
  version: 1;
  exportedAt: string;
  exportedBy: string;
  environment: string;
  donorDetails: 'included' | 'redacted';
  case: TCase;
};

export function caseBundle(c: TCase, by: { email: string; environment: string }, includeDonor: boolean): TCaseBundle {
  return {
    kind: 'giving-connect.case-bundle',
    version: 1,
    exportedAt: new Date().toISOString(),
    exportedBy: by.email,
    environment: by.environment,
    donorDetails: includeDonor ? 'included' : 'redacted',
    case: redactValue(c, includeDonor) as TCase,
  };
}
