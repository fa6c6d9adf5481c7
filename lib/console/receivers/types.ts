import type { TBodyGone } from '../retention/body-gone';
import type { TSignatureVerdict } from '@/lib/constants';

// What a receiver (the console's webhook endpoint at /ingest/{slug}) is, and what it stored.

export type TReceiver = {
  id: string;
  slug: string;
  name: string;
  secrets: string[];
  responseStatus: number;
  responseBody: string;
  responseDelayMs: number;
  createdAt: Date;
  updatedAt: Date;
};

export type TReceipt = {
  id: number;
  receiverId: string;
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  body: Uint8Array | null;
  bodySize: number;
  oversize: boolean;
  sourceIp: string;
  receivedAt: Date;
  messageId: string | null;
  verdict: TSignatureVerdict;
  verdictReason: string;
  duplicate: boolean;
  responseStatus: number;
  /** The address it came to (`host[:port]`); '' for receipts stored before it was kept. */
  host: string;
  /** Set when retention purged the body and headers, or a donor erasure replaced them (lib/console/retention). */
  bodyGone: TBodyGone | null;
};

export const MAX_RECEIVER_SECRETS = 2;
export const MAX_RESPONSE_DELAY_MS = 30_000;
export const MAX_RESPONSE_BODY_LENGTH = 64 * 1024;
