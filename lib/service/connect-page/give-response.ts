import { NextResponse, type NextRequest } from 'next/server';
import { readBodyBytes } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { parseFormStrict } from '@/lib/http/storable-text';
import type { TConnectRow } from '@/lib/service/connects/connect-json';
import { GIVE_FORM_COOKIE, GIVE_FORM_COOKIE_MAX_AGE, encodeFormValues, type TGiveFormError, type TGiveFormValues } from './give-form';
import { THANKS_COOKIE, THANKS_MAX_AGE_S, withThanksEntry } from './thanks-cookie';

// A browser posts the donor form, so every answer of POST /connect/{cid}/give is a page to land
// on (a 303), never problem+json: the form again with what went wrong, or the confirmation.

const pagePath = (cid: string) => `/connect/${encodeURIComponent(cid)}`;

/**
 * The urlencoded body of the donor form, or the error code the form shows when the body cannot
 * be one: `tooLarge` past the body limit (413 in the API), `unreadable` for another type (415) or
 * a field that is not UTF-8 or cannot be stored (a NUL: no browser sends those).
 */
export async function readForm(req: NextRequest): Promise<{ form: URLSearchParams } | { error: TGiveFormError }> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return { error: 'unreadable' };
  try {
    const form = parseFormStrict(Buffer.from(await readBodyBytes(req)).toString('utf8'));
    return form ? { form } : { error: 'unreadable' };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'payload_too_large') return { error: 'tooLarge' };
    throw err;
  }
}

/** 303 to the Connect's page, which renders the not-found page when it is unknown or inactive. */
export function connectPageRedirect(cid: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { location: pagePath(cid) } });
}

/**
 * 303 See Other: to the confirmation after a grant (remembering in this browser that it gave, see
 * thanks-cookie.ts), or back to the form with error codes (the donor's input, when there is some,
 * rides along in a short-lived cookie scoped to this Connect's pages, not the URL).
 */
export function giveRedirect(
  req: NextRequest,
  connect: Pick<TConnectRow, 'id' | 'apiKey'>,
  to: { trackingId: string } | { errors: TGiveFormError[]; values?: TGiveFormValues },
): NextResponse {
  const base = pagePath(connect.id);
  const location = 'trackingId' in to ? `${base}/thanks?t=${encodeURIComponent(to.trackingId)}` : `${base}?error=${to.errors.join(',')}#give`;
  const res = new NextResponse(null, { status: 303, headers: { location } });
  const cookie = { path: base, httpOnly: true, sameSite: 'lax' as const, secure: req.nextUrl.protocol === 'https:' };
  if ('trackingId' in to) {
    res.cookies.set(GIVE_FORM_COOKIE, '', { ...cookie, maxAge: 0 });
    const thanks = withThanksEntry(req.cookies.get(THANKS_COOKIE)?.value, connect, to.trackingId);
    res.cookies.set(THANKS_COOKIE, thanks, { ...cookie, maxAge: THANKS_MAX_AGE_S });
  } else if (to.values) {
    res.cookies.set(GIVE_FORM_COOKIE, encodeFormValues(to.values), { ...cookie, maxAge: GIVE_FORM_COOKIE_MAX_AGE });
  }
  return res;
}
