import 'server-only';
import { connectApi, ConnectApiError, isEnvironmentName } from '../connect-api';
import { buildCase } from '../investigation/build-case';
import { redactForViewer } from '../staff/viewer-redaction';
import { renderGone, renderSharedCase } from './render-share';
import { openShare } from './shares';
import type { TCase } from '../investigation/case-types';

// GET /share/{token}: the case a live link names, read now and masked as for a viewer; 410 for a
// link that expired or was revoked, 404 for a token that names none. Never framed, never indexed.

export const SHARE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export async function sharedCasePage(token: string, source: string): Promise<{ status: number; html: string }> {
  const opened = await openShare(token, source);
  if (opened.state === 'unknown') return { status: 404, html: renderGone('unknown') };
  if (opened.state === 'gone') return { status: 410, html: renderGone('gone') };
  const { share } = opened;
  const environment = isEnvironmentName(share.environment) ? share.environment : 'sandbox';
  let found: TCase;
  try {
    found = await buildCase(environment, connectApi(environment), share.query);
  } catch (err) {
    if (!(err instanceof ConnectApiError)) throw err;
    const at = new Date().toISOString();
    found = {
      query: share.query,
      kind: 'unknown',
      grants: [],
      messages: [],
      notes: [`The API could not be read just now (${err.status || 'network error'}); try again in a minute.`],
      fetchedAt: at,
    };
  }
  const masked = redactForViewer(found) as TCase;
  return { status: 200, html: renderSharedCase(masked, { ticket: share.ticket, expiresAt: share.expiresAt, createdBy: share.createdByEmail }) };
}
