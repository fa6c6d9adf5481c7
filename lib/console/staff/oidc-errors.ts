import * as client from 'openid-client';

// How a single sign-on ends when it does not sign anyone in: a code from this closed list, which is
// the login page's `?error=` and the audit entry's result, and one sentence per code for the page.
// Nothing the identity provider wrote reaches the page or the log: only the code (and, in the
// audit detail, the library's own check name). Pure apart from the error classes it tells apart.

export const SSO_ERRORS = {
  sso_off: 'Single sign-on is not set up on this console.',
  state_mismatch: 'This sign-in was not started here, or it took longer than 10 minutes. Please start again.',
  idp_denied: 'The identity provider did not sign you in.',
  idp_cancelled: 'Sign-in was cancelled at the identity provider. Start again when you are ready.',
  idp_unreachable: 'The identity provider could not be reached. Please try again in a moment.',
  wrong_issuer: 'The answer did not come from the identity provider this console trusts, so it was refused.',
  code_rejected: 'The identity provider refused the sign-in code: it was already used or has expired. Please start again.',
  bad_token: 'The identity provider’s ID token failed its checks (signature, audience, nonce or expiry), so it was refused.',
  client_rejected: 'The identity provider refused this console’s client credentials. An admin needs to check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
  no_email: 'The identity provider did not send an e-mail address for you, so this console cannot tell who you are.',
  email_unverified:
    'Your e-mail address is not verified at the identity provider, so this console cannot be sure it is yours. Verify it there, then sign in again.',
  linked_elsewhere:
    'A console user with this e-mail address signs in with another account at the identity provider, so this account was refused. Sign in with that account, or ask an admin.',
  domain_not_allowed: 'Your e-mail domain may not sign in to this console.',
  no_role: 'You do not have an account on this console yet. Ask an admin to add you.',
  disabled: 'Your account on this console is deactivated. Ask an admin.',
  sso_failed: 'Single sign-on failed. Please try again, or ask an admin.',
} as const;
export type TSsoError = keyof typeof SSO_ERRORS;

/**
 * The sentence for `?error=<code>`; nothing for a code this console did not make (never echoed).
 * `provider`: the sign-in button's label (OIDC_NAME), named where the sentence is about it.
 */
export function ssoErrorMessage(code: unknown, provider?: string): string | undefined {
  const c = Array.isArray(code) ? code[0] : code;
  if (typeof c !== 'string' || !Object.hasOwn(SSO_ERRORS, c)) return undefined;
  if (c === 'idp_cancelled' && provider) return `Sign-in was cancelled at ${provider}. Start again when you are ready.`;
  return SSO_ERRORS[c as TSsoError];
}

type TClassified = { code: TSsoError; check?: string };

/** What an error of openid-client (or of the network under it) means for the person signing in. */
export function classifySsoError(err: unknown): TClassified {
  if (err instanceof client.ResponseBodyError) {
    if (err.error === 'invalid_grant') return { code: 'code_rejected', check: 'invalid_grant' };
    if (err.error === 'invalid_client' || err.error === 'unauthorized_client') return { code: 'client_rejected', check: err.error };
    return { code: 'sso_failed', check: 'token_endpoint_error' };
  }
  if (err instanceof client.AuthorizationResponseError) {
    // access_denied: the person chose Cancel (or No) at the provider; anything else is the provider's refusal.
    if (err.error === 'access_denied') return { code: 'idp_cancelled', check: 'access_denied' };
    return { code: 'idp_denied', check: /^[a-z_]{1,40}$/.test(err.error) ? err.error : 'error' };
  }
  if (err instanceof client.ClientError) return classifyClientError(err);
  if (err instanceof Error && err.name === 'MissingIdTokenError') return { code: 'bad_token', check: 'no id_token' };
  if (isNetworkError(err)) return { code: 'idp_unreachable', check: 'network' };
  return { code: 'sso_failed' };
}

function classifyClientError(err: client.ClientError): TClassified {
  const check = err.code ?? 'client_error';
  // openid-client wraps oauth4webapi's error (its cause) or says itself what it compared (attribute).
  const cause = err.cause as { message?: string; attribute?: string; cause?: { claim?: string; attribute?: string } } | undefined;
  const message = cause?.message ?? '';
  switch (err.code) {
    case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED': // the discovery document names another issuer
      return { code: (cause?.attribute ?? cause?.cause?.attribute) === 'issuer' ? 'wrong_issuer' : 'sso_failed', check };
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED': // iss, aud, azp or nonce of the ID token
      return { code: cause?.cause?.claim === 'iss' ? 'wrong_issuer' : 'bad_token', check: `${check}:${cause?.cause?.claim ?? '?'}` };
    case 'OAUTH_INVALID_RESPONSE':
      if (/"iss"/.test(message)) return { code: 'wrong_issuer', check }; // the callback's iss parameter (RFC 9207)
      if (/"state"/.test(message)) return { code: 'state_mismatch', check };
      return { code: 'bad_token', check }; // a signature that does not verify, a malformed token
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
    case 'OAUTH_KEY_SELECTION_FAILED':
    case 'OAUTH_PARSE_ERROR':
      return { code: 'bad_token', check };
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM': // a 5xx, an HTML error page
    case 'OAUTH_RESPONSE_IS_NOT_JSON':
      return { code: 'idp_unreachable', check };
    default:
      if (isNetworkError(err.cause)) return { code: 'idp_unreachable', check: 'network' };
      return { code: 'sso_failed', check };
  }
}

/** A refused or timed-out connection (fetch's TypeError, an AbortSignal timeout). */
function isNetworkError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return true;
  return err instanceof TypeError && /fetch failed|network/i.test(err.message);
}
