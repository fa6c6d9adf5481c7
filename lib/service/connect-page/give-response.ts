import { NextResponse, type NextRequest } from 'next/server';
import { readBodyBytes } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { GIVE_FORM_COOKIE, GIVE_FORM_COOKIE_MAX_AGE, encodeFormValues, type TGiveFormError, type TGiveFormValues } from './give-form';

/** The urlencoded body of the donor form (413 when oversized, 415 when another type). */
export async function readForm(req: NextRequest): Promise<URLSearchParams> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new ApiError('unsupported_media_type', 'Submit the form as application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(Buffer.from(await readBodyBytes(req)).toString('utf8'));
}

/**
 * 303 See Other: to the confirmation after a grant, or back to the form with error codes (the
 * donor's input rides along in a short-lived cookie scoped to this Connect's pages, not the URL).
 */
export function giveRedirect(
  req: NextRequest,
  cid: string,
  to: { trackingId: string } | { errors: TGiveFormError[]; values: TGiveFormValues },
): NextResponse {
  const base = `/connect/${encodeURIComponent(cid)}`;
  const location = 'trackingId' in to ? `${base}/thanks?t=${encodeURIComponent(to.trackingId)}` : `${base}?error=${to.errors.join(',')}#give`;
  const res = new NextResponse(null, { status: 303, headers: { location } });
  const cookie = { path: base, httpOnly: true, sameSite: 'lax' as const, secure: req.nextUrl.protocol === 'https:' };
  if ('trackingId' in to) res.cookies.set(GIVE_FORM_COOKIE, '', { ...cookie, maxAge: 0 });
  else res.cookies.set(GIVE_FORM_COOKIE, encodeFormValues(to.values), { ...cookie, maxAge: GIVE_FORM_COOKIE_MAX_AGE });
  return res;
}
