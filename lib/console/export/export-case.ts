import 'server-only';
import { buildCase } from '@/lib/console/investigation/build-case';
import type { TCase } from '@/lib/console/investigation/case-types';
import type { ConnectApi } from '@/lib/console/connect-api';
import type { TEnvironmentName } from '@/lib/console/staff/session';
import { redactValue } from './redact-export';

// A case (lib/console/investigation/build-case, exactly what the case page shows: grants, each message at every
// webhook with its attempts, receipts, verdicts, reconciliation and plain explanation) as a JSON
// evidence bundle for a ticket. Its explanations say ISO instants, not "in 3 min" (a file goes stale).

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

/** The case of `q` as the page shows it, but with absolute times in its explanations. */
export function buildCaseForExport(envName: TEnvironmentName, api: ConnectApi, q: string): Promise<TCase> {
  return buildCase(envName, api, q, { times: 'absolute' });
}
