import 'server-only';
import { z } from 'zod';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { ConnectApiError, type ConnectApi, type TAccountRetention } from '@/lib/console/connect-api';
import { formatDuration, parseDuration } from '@/lib/duration';
import { ApiError, validationError } from '@/lib/http/errors';
import type { TStaff } from '../staff/session';
import { SERVICE_KEYS, ZDurationText, type TSetting } from './retention-settings';

// The service's retention for the account this console is connected to (its environment's client):
// EXT GET/PATCH /v1/retention. The service's environment holds the deployment's defaults; the account
// may set its own, which its purge applies to the account's messages. Shown on /retention (read-only
// below admin) and changed by an admin through PATCH /api/retention/service, audited
// (`retention.service.update`, with the environment in the actor).

type TServiceKey = (typeof SERVICE_KEYS)[number];
const FIELD = { MESSAGE_PAYLOAD_RETENTION: 'messagePayloadRetention', MESSAGE_RETENTION: 'messageRetention' } as const satisfies Record<
  TServiceKey,
  keyof TAccountRetention['effective']
>;
const KEY_OF = Object.fromEntries(Object.entries(FIELD).map(([k, f]) => [f, k])) as Record<string, TServiceKey>;

/** The service's two settings for this account: `account` (its own) or `default` (the deployment's). */
export function serviceSettings(r: TAccountRetention): TSetting[] {
  return SERVICE_KEYS.map((key) => {
    const value = r.effective[FIELD[key]];
    return {
      key,
      value,
      ms: parseDuration(value) ?? 0,
      source: r.overrides[FIELD[key]] === null ? 'default' : 'account',
      editable: true,
      defaultValue: r.defaults[FIELD[key]],
    };
  });
}

/** PATCH /api/retention/service: either key, a duration or null (the service's default). */
export const ZServiceRetentionPatch = z.strictObject({ MESSAGE_PAYLOAD_RETENTION: ZDurationText, MESSAGE_RETENTION: ZDurationText });

/** The account's retention in the service, as /retention shows it; `partitions` null from a service before partitions. */
export async function serviceRetention(
  api: ConnectApi,
): Promise<{ settings: TSetting[]; updatedAt: string | null; partitions: NonNullable<TAccountRetention['partitions']> | null }> {
  const r = await api.get('/v1/retention');
  return { settings: serviceSettings(r), updatedAt: r.updatedAt, partitions: r.partitions ?? null };
}

/** Sends the change to the service (which checks payloads against rows and applies it at its purge's next pass); audited. */
export async function updateServiceRetention(staff: TStaff, api: ConnectApi, body: unknown): Promise<{ settings: TSetting[]; updatedAt: string | null }> {
  const parsed = ZServiceRetentionPatch.safeParse(body, { reportInput: true });
  if (!parsed.success) throw validationError(parsed.error, 'body');
  const changed: Record<string, string | null> = {};
  for (const key of SERVICE_KEYS) {
    const v = parsed.data[key];
    if (v !== undefined) changed[key] = v === null ? null : formatDuration(v);
  }
  const target = [staff.environment, ...Object.keys(changed)];
  try {
    const r = await api.patch('/v1/retention', { body: Object.fromEntries(Object.entries(changed).map(([k, v]) => [FIELD[k as TServiceKey], v])) });
    await recordAudit({ actor: staff, action: 'retention.service.update', target, result: 'ok', detail: changed });
    return { settings: serviceSettings(r), updatedAt: r.updatedAt };
  } catch (err) {
    await recordAudit({ actor: staff, action: 'retention.service.update', target, result: auditResultOf(err) });
    throw fieldErrorOf(err);
  }
}

/** The service's 400 in the console's names (messageRetention → MESSAGE_RETENTION), so the form can say which field. */
function fieldErrorOf(err: unknown): unknown {
  if (!(err instanceof ConnectApiError) || err.status !== 400 || !err.problem?.errors?.length) return err;
  const rename = (text: string) => text.replace(/messagePayloadRetention|messageRetention/g, (f) => KEY_OF[f] ?? f);
  const errors = err.problem.errors.map((e) => ({ path: rename(e.path), message: rename(e.message) }));
  return new ApiError('bad_request', `Invalid body: ${errors[0].path}: ${errors[0].message}.`, { errors });
}
