import 'server-only';
import { isUnsupported, type ConnectApi } from '@/lib/console/connect-api';
import { badPageToken } from '@/lib/http/page-limit';
import { accountWebhooks } from '../webhooks/account-webhooks';
import { listReceivers } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import type { TEnvironmentName } from '../staff/session';
import { indexProblems } from './index-problems';
import type { TProblemContext } from './problem-rows';
import { PROBLEMS_PAGE_SIZE, type TProblemsCursor, type TProblems } from './problem-types';
import { scanProblems } from './scan-problems';
import { disableWarning } from '../health/disable-warning';
import { pausedNotes } from './paused-problems';

// Problems across every webhook of the account in a date range: each (message, webhook) that
// failed, is still pending past its first retry, was sent but not received, arrived with a bad
// signature or was answered with an error. Sender side from the service, receiver side from this
// console's receipts; both joined and reconciled like the timeline. Healthy webhooks do not appear.
// By index when the service offers GET /v1/webhooks/messages (index-problems.ts), else by a scan
// of each webhook's failed and pending messages (scan-problems.ts).

export { DEFAULT_WINDOW_MS, PROBLEMS_PAGE_SIZE, type TProblemGroup, type TProblemItem, type TProblems } from './problem-types';

export async function findProblems(
  envName: TEnvironmentName,
  api: ConnectApi,
  { since, until, cursor, pageLimit = PROBLEMS_PAGE_SIZE }: { since: Date; until: Date; cursor?: TProblemsCursor; pageLimit?: number },
): Promise<TProblems> {
  const asOf = new Date();
  const [{ webhooks, listed }, receivers, addresses] = await Promise.all([accountWebhooks(envName, api), listReceivers(), consoleAddresses()]);
  const ctx: TProblemContext = { receivers, addresses, webhooks, asOf, now: new Date() };
  const notes = listed ? [] : ['This service does not list webhooks (an extension): only the webhooks this console tracks are checked.'];
  const window = { since, until, pageLimit };
  let page;
  if (cursor?.k !== 'scan') {
    try {
      page = await indexProblems(envName, api, ctx, { ...window, cursor });
    } catch (err) {
      if (!isUnsupported(err)) throw err;
      if (cursor) throw badPageToken('console');
      notes.push(
        'This service does not list failed and retrying messages across webhooks (an extension): each webhook’s were read in turn, up to 500 of each kind.',
      );
    }
  }
  page ??= await scanProblems(envName, api, ctx, { ...window, cursor: cursor?.k === 'scan' ? cursor : undefined });
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    groups: page.groups.sort((a, b) => b.total - a.total),
    items: page.items,
    nextPageToken: page.nextPageToken,
    notes,
    aboutToDisable: webhooks.flatMap((w) => {
      const warning = disableWarning({ disabled: w.disabled, failingSince: w.failingSince ?? null, disablesAt: w.disablesAt ?? null }, null);
      return warning ? [{ webhookId: w.id, name: w.description || w.url, sentence: warning.sentence }] : [];
    }),
    paused: pausedNotes(webhooks, ctx.now),
    fetchedAt: ctx.now.toISOString(),
  };
}
