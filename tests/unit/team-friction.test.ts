import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCalloutParts } from '../../lib/console/error-info';
import { formatMoney } from '../../lib/money';
import { formatUtc, formatUtcLabel } from '../../lib/console/format';
import { lastSuccessFigure } from '../../lib/console/health/last-success';
import { resendSummary } from '../../lib/console/recover/resend-summary';
import { receiverForRole, resolveSecretStandIns } from '../../lib/console/receivers/secrets-for-role';
import { secretFingerprint } from '../../lib/console/secret-fingerprint';
import { renderSharedCase } from '../../lib/console/share/render-share';
import { classifySsoError, ssoErrorMessage } from '../../lib/console/staff/oidc-errors';
import { AuthorizationResponseError } from 'openid-client';
import type { TCase, TCaseGrant } from '../../lib/console/investigation/case-types';

// Issue 38's small ones, each pinned: one time format (UTC) and money with its currency, on the
// share page too; the Recover result counts only what went out; an error callout says a refusal
// once; "Last success" beside 0 % verified; a cancelled sign-in names the provider; receivers'
// secrets for non-admins as stand-ins that keep their secret when sent back.

test('one time format, UTC, and money with its currency', () => {
  assert.equal(formatUtc('2026-03-04T05:06:07.089Z'), '2026-03-04 05:06:07');
  assert.equal(formatUtc(new Date('2026-03-04T05:06:07.089Z'), true), '2026-03-04 05:06:07.089');
  assert.equal(formatUtcLabel('2026-03-04T05:06:07Z'), '2026-03-04 05:06:07 UTC');
  assert.equal(formatUtc('not a time'), 'not a time');
  assert.equal(formatMoney(15000), '$150.00');
  assert.equal(formatMoney(123456789), '$1,234,567.89');
});

test('the share page says times as the console does and money with its currency', () => {
  const grant = {
    id: 'g1',
    trackingId: 'gc-1',
    amount: 15000,
    feeAmount: 0,
    status: 'Completed',
    fundId: 'f',
    fundName: 'Fund',
    firstName: 'A•••',
    lastName: 'L•••',
    email: 'a•••@example.org',
    connectId: 'c',
    createdAt: '2026-03-04T05:06:07.000Z',
    source: 'api',
  } as TCaseGrant;
  const c = { query: 'gc-1', kind: 'tracking-id', grants: [grant], messages: [], notes: [], fetchedAt: '2026-03-04T06:00:00.000Z' } as unknown as TCase;
  const html = renderSharedCase(c, { ticket: 'SUP-1', expiresAt: new Date('2026-03-07T00:00:00Z'), createdBy: 'op@example.org' });
  assert.match(html, /<td>\$150\.00<\/td>/);
  assert.match(html, /2026-03-04 05:06:07 UTC/);
  assert.match(html, /stops working at 2026-03-07 00:00:00 UTC/);
  assert.match(html, /Read at 2026-03-04 06:00:00 UTC/);
  assert.ok(!/\d{4}-\d\d-\d\dT\d\d:\d\d/.test(html), 'no raw ISO time');
});

test('the Recover result counts a refused message apart, not as re-sent, and leaves the run id out of the sentence', () => {
  const base = { messages: 5, succeeded: 3, failed: 1, refused: 1, skipped: 0, verified: 3, error: 'The message is gone.' };
  const text = resendSummary(base);
  assert.match(
    text,
    /^Done: 4 of 5 re-sent · 3 answered 2xx · 3 verified by the receiver · 1 failed · 1 not sent: the API refused it \(The message is gone\.\)\.$/,
  );
  const stopped = resendSummary({ messages: 20, succeeded: 8, failed: 0, refused: 0, skipped: 12, verified: 0, error: null });
  assert.match(stopped, /8 of 20 re-sent .* 12 not sent: the receiver verified none of the first 8/);
});

test('an error callout: a refusal is titled as one and not said twice; the unknown stays "Something went wrong"', () => {
  const refused = errorCalloutParts({
    message: 'targetUrl: 10.0.0.1 is a private address.',
    errors: [{ path: 'targetUrl', message: '10.0.0.1 is a private address.' }],
  });
  assert.equal(refused.title, 'Not accepted');
  assert.deepEqual(refused.details, [], 'the field error the message already says');
  const two = errorCalloutParts({ message: 'The receiver settings are invalid.', errors: [{ path: 'name', message: 'is required' }] });
  assert.deepEqual(two.details, [{ path: 'name', message: 'is required' }]);
  assert.equal(errorCalloutParts({ message: 'x', status: 502 }).title, 'The API answered 502');
  assert.equal(errorCalloutParts({ message: 'x' }).title, 'Something went wrong');
});

test('"Last success" is no success when every 2xx failed verification at the receiver', () => {
  assert.deepEqual(lastSuccessFigure('2026-03-04T05:06:07Z', 0, 7), {
    label: 'Last verified success',
    at: null,
    note: 'none in this window: every 2xx arrival failed verification at the receiver',
  });
  assert.deepEqual(lastSuccessFigure('2026-03-04T05:06:07Z', 0.5, 7), { label: 'Last success', at: '2026-03-04T05:06:07Z', note: null });
  assert.deepEqual(lastSuccessFigure(null, 0, 0), { label: 'Last success', at: null, note: null });
});

test('a sign-in cancelled at the provider is said as such, naming it', () => {
  const cancelled = classifySsoError(new AuthorizationResponseError('cancelled', { cause: new URLSearchParams({ error: 'access_denied' }) }));
  assert.deepEqual(cancelled, { code: 'idp_cancelled', check: 'access_denied' });
  const denied = classifySsoError(new AuthorizationResponseError('denied', { cause: new URLSearchParams({ error: 'login_required' }) }));
  assert.equal(denied.code, 'idp_denied');
  assert.equal(ssoErrorMessage('idp_cancelled', 'Corp SSO'), 'Sign-in was cancelled at Corp SSO. Start again when you are ready.');
  assert.equal(ssoErrorMessage('idp_cancelled'), 'Sign-in was cancelled at the identity provider. Start again when you are ready.');
});

test('receivers’ secrets: whole for admins, stand-ins for the others, and a stand-in sent back keeps its secret', () => {
  const secret = 'whsec_' + Buffer.from('friction-secret-0123456789abcdef').toString('base64');
  const standIn = `[secret ${secretFingerprint(secret)}…]`;
  assert.deepEqual(receiverForRole('admin', { secrets: [secret] }).secrets, [secret]);
  assert.deepEqual(receiverForRole('operator', { secrets: [secret] }).secrets, [standIn]);
  assert.deepEqual(receiverForRole('viewer', { secrets: [secret] }).secrets, [standIn]);
  assert.deepEqual(resolveSecretStandIns([standIn, 'whsec_new'], [secret]), [secret, 'whsec_new']);
  assert.throws(() => resolveSecretStandIns(['[secret 00000000…]'], [secret]), /not a secret this receiver holds/);
});
