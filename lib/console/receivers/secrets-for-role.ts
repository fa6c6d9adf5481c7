import { ApiError } from '@/lib/http/errors';
import { secretFingerprint } from '../secret-fingerprint';
import { hasRole } from '../staff/roles';
import { secretStandIn } from '../staff/viewer-redaction';
import type { TReceiver } from './types';

// A receiver's signing secrets in full are for admins (docs/GUIDE.md, "Team: roles, staff users, share links"); operators and viewers see
// each as its stand-in, `[secret 1a2b3c4d…]` (its fingerprint). An operator still sets secrets: a
// stand-in sent back unchanged keeps the secret it stands for, so a form or a PATCH that shows
// what it got and changes one secret keeps the other; a new secret is sent whole. The one-click
// fix (the receiver takes the webhook's secret) is worked out on the server and needs no secret.

const STAND_IN = /^\[secret ([0-9a-f]{8})…\]$/;

/** The receiver as `role` may see it: its secrets whole for an admin, their stand-ins for the others. */
export function receiverForRole<T extends Pick<TReceiver, 'secrets'>>(role: string, receiver: T): T {
  return hasRole(role, 'admin') ? receiver : { ...receiver, secrets: receiver.secrets.map(secretStandIn) };
}

/** Whether `value` is a secret's stand-in rather than a secret. */
export function isSecretStandIn(value: string): boolean {
  return STAND_IN.test(value.trim());
}

/**
 * `values` with each stand-in replaced by the current secret it stands for; a stand-in of no
 * current secret (stale, or typed) is a 400 naming it, so nothing is saved by mistake.
 */
export function resolveSecretStandIns(values: string[], current: string[], field = 'secrets'): string[] {
  return values.map((value, i) => {
    const m = STAND_IN.exec(value.trim());
    if (!m) return value;
    const held = current.find((s) => secretFingerprint(s) === m[1]);
    if (held) return held;
    const path = values.length > 1 || field === 'secrets' ? `${field}[${i}]` : field;
    const message = `${value.trim()} is not a secret this receiver holds now; send the secret itself (only admins see secrets in full).`;
    throw new ApiError('bad_request', message, { errors: [{ path, message }] });
  });
}
