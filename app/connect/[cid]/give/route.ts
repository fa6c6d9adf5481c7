// Donor Connect flow: POST /connect/{cid}/give — the form's submission; creates the grant. Always a 303 to a page: the confirmation, the form with what is wrong, or the not-found page.
import { ApiError } from '@/lib/http/errors';
import { otherMethods, route } from '@/lib/http/respond';
import { connectPageRedirect, giveRedirect, readForm } from '@/lib/service/connect-page/give-response';
import { parseGiveForm, workflowSessionOf } from '@/lib/service/connect-page/give-form';
import { findActiveConnect } from '@/lib/service/connects/get-connect';
import { createGrant } from '@/lib/service/grants/create-grant';

export const POST = route<{ cid: string }>(async ({ req, params }) => {
  const found = await findActiveConnect(params.cid);
  if (!found) return connectPageRedirect(params.cid);
  const { connect } = found;
  const body = await readForm(req);
  if ('error' in body) return giveRedirect(req, connect, { errors: [body.error] });
  const parsed = parseGiveForm(body.form);
  if (!parsed.ok) return giveRedirect(req, connect, { errors: parsed.errors, values: parsed.values });
  try {
    const { grant } = await createGrant(
      { ...parsed.input, connect },
      // A double-clicked submit replays the first grant instead of making a second.
      // The page's form token names the donor's visit: the grant's workflow session.
      parsed.formToken ? { idempotencyKey: `connect-page:${parsed.formToken}`, workflowSessionId: workflowSessionOf(parsed.formToken) } : {},
    );
    return giveRedirect(req, connect, { trackingId: grant.trackingId });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'conflict') return giveRedirect(req, connect, { errors: ['resubmitted'], values: parsed.values });
    // Turned off since the page loaded: the page now says it is not available.
    if (err instanceof ApiError && err.code === 'forbidden') return connectPageRedirect(params.cid);
    throw err;
  }
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
