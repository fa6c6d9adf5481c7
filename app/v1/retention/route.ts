// Service: EXT GET /v1/retention — the account's retention (effective, its overrides, the deployment's
// defaults, and the deployment's partitions: partition-status.ts); PATCH {messagePayloadRetention?, messageRetention?} — set either (`30d`; null: the default).
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getAccountRetention, updateAccountRetention } from '@/lib/service/retention/account-retention';
import { servicePartitionStatuses } from '@/lib/service/retention/partition-status';
import { ZRetentionPatch } from '@/lib/service/retention/schemas';

export const GET = withAccount(async ({ account }) => {
  const [retention, partitions] = await Promise.all([getAccountRetention(account.accountId), servicePartitionStatuses(account.accountId)]);
  return json({ ...retention, partitions });
});

export const PATCH = withAccount(async ({ req, account }) => json(await updateAccountRetention(account.accountId, await readJson(req, ZRetentionPatch))));

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(['GET', 'PATCH']);
