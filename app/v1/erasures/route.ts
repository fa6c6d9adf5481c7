// Service: EXT POST /v1/erasures {email | grantId, dryRun?} — one donor's data erased (or counted), with a report.
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { eraseDonor } from '@/lib/service/erasures/erase-donor';
import { ZErasureBody } from '@/lib/service/erasures/openapi';

export const POST = withAccount(async ({ req, account }) => {
  const { email, grantId, dryRun } = await readJson(req, ZErasureBody);
  return json(await eraseDonor(account.accountId, email !== undefined ? { email } : { grantId: grantId! }, { dryRun }));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
