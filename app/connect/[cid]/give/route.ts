// Donor Connect flow: POST /connect/{cid}/give — the form's submission; creates the grant, then 303 to the confirmation.
import { ApiError } from '@/lib/http/errors';
import { otherMethods, route } from '@/lib/http/respond';
import { giveRedirect, readForm } from '@/lib/service/connect-page/give-response';
import { parseGiveForm } from '@/lib/service/connect-page/give-form';
import { findActiveConnect } from '@/lib/service/connects/get-connect';
import { createGrant } from '@/lib/service/grants/create-grant';

export const POST = route<{ cid: string }>(async ({ req, params }) => {
  const found = await findActiveConnect(params.cid);
  if (!found) throw new ApiError('not_found', 'No active Connect has this id.');
  const parsed = parseGiveForm(await readForm(req));
  if (!parsed.ok) return giveRedirect(req, params.cid, { errors: parsed.errors, values: parsed.values });
  try {
    const { grant } = await createGrant(
      { ...parsed.input, connect: found.connect },
      // A double-clicked submit replays the first grant instead of making a second.
      { idempotencyKey: parsed.formToken ? `connect-page:${parsed.formToken}` : undefined },
    );
    return giveRedirect(req, params.cid, { trackingId: grant.trackingId });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'conflict') return giveRedirect(req, params.cid, { errors: ['resubmitted'], values: parsed.values });
    throw err;
  }
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
