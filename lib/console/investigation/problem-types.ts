import { z } from 'zod';
import { badPageToken } from '@/lib/http/page-limit';
import type { TProblemGrant } from './problem-grant';
import type { TReceiverRef, TTimelineMessage, TTimelineWebhook } from '../timeline/timeline-types';

// The problems view's shapes and its page token, shared by the indexed read (index-problems.ts) and
// the scan for services without the extensions it needs (scan-problems.ts).

export const PROBLEMS_PAGE_SIZE = 50;
/** A delivered message with a copy that did not verify beside it: a problem of its own kind, never a resend. */
export const SUSPICIOUS_KIND = 'suspicious-arrival';
export const SUSPICIOUS_LABEL = 'delivered and verified, then a copy that did not verify (suspicious arrival)';
export const DEFAULT_WINDOW_MS = 7 * 24 * 3600_000;

export type TProblemItem = TTimelineMessage & { webhookId: string; grant: TProblemGrant | null };
/** One kind of problem of a webhook: `count` exact, or at least `count` when `capped`. */
export type TProblemCount = { key: string; label: string; count: number; capped: boolean };
export type TProblemGroup = {
  webhook: TTimelineWebhook;
  receiver: TReceiverRef | null;
  counts: TProblemCount[];
  total: number;
  /** A count stopped at its cap: there are at least `total`. */
  truncated: boolean;
};
export type TProblems = {
  since: string;
  until: string;
  groups: TProblemGroup[];
  items: TProblemItem[];
  nextPageToken: string | null;
  notes: string[];
  /** Enabled webhooks in a failing stretch: when the service will disable them, in words. */
  aboutToDisable?: { webhookId: string; name: string; sentence: string }[];
  /** Paused webhooks: their undelivered messages wait (not sent yet), in words; they are not among the problems. */
  paused?: { webhookId: string; name: string; sentence: string }[];
  fetchedAt: string;
};

const ZKey = z.object({ t: z.iso.datetime(), m: z.string().min(1).max(200), w: z.string().min(1).max(200) });
/** Where a service list stands: its page token (none: the first page) and how many of that page were shown; `done`: nothing left. */
const ZSourcePosition = z.object({ tok: z.string().min(1).max(1000).optional(), skip: z.number().int().min(0).max(100), done: z.boolean().optional() });
const ZCursor = z.union([
  // The scan: the last item shown, in the view's order.
  ZKey.extend({ k: z.literal('scan') }),
  // The indexed read: each source's position.
  z.object({
    k: z.literal('index'),
    failed: ZSourcePosition,
    retrying: ZSourcePosition,
    receipts: z
      .object({ t: z.iso.datetime(), id: z.string().min(1).max(200) })
      .nullable()
      .or(z.literal('done')),
  }),
]);
export type TProblemsCursor = z.output<typeof ZCursor>;
export type TScanCursor = Extract<TProblemsCursor, { k: 'scan' }>;
export type TIndexCursor = Extract<TProblemsCursor, { k: 'index' }>;

export function encodeCursor(c: TProblemsCursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(token: string): TProblemsCursor {
  try {
    return ZCursor.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
  } catch {
    throw badPageToken('console');
  }
}
