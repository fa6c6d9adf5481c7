import 'server-only';
import { audited } from '../audit/audited';
import { receiverChanges } from '../audit/receiver-changes';
import type { TAuditActor } from '../audit/record-audit';
import { ApiError } from '@/lib/http/errors';
import { getReceiver } from './get-receiver';
import { createReceiver, updateReceiver } from './manage-receivers';
import type { TReceiver } from './types';

// A receiver created or its settings changed by staff, with its audit entry: the one way both the
// receivers' server actions and their JSON routes do it. The caller has checked the session and role.

/** Creates a receiver (a taken slug is a 409 naming `slug`), audited with its name, slug and whether it verifies. */
export function createReceiverAudited(by: TAuditActor, input: { name: string; slug?: string; secret?: string }): Promise<TReceiver> {
  return audited(by, 'receiver.create', { detail: { name: input.name } }, async (note) => {
    const receiver = await createReceiver(input);
    note({ target: [receiver.id], detail: { name: receiver.name, slug: receiver.slug, verifies: receiver.secrets.length > 0 } });
    return receiver;
  });
}

export type TReceiverPatch = Partial<Pick<TReceiver, 'name' | 'secrets' | 'responseStatus' | 'responseBody' | 'responseDelayMs'>>;

/** A receiver by id or slug, or a 404. */
export async function requireReceiver(idOrSlug: string): Promise<TReceiver> {
  const receiver = await getReceiver(idOrSlug);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.');
  return receiver;
}

/** Changes the settings of `before` (as just read), audited with what changed: never a secret. */
export function updateReceiverAudited(by: TAuditActor, before: TReceiver, patch: TReceiverPatch): Promise<TReceiver> {
  return audited(by, 'receiver.update', { target: [before.id] }, async (note) => {
    const updated = await updateReceiver(before.id, patch);
    note({ detail: receiverChanges(before, patch) });
    return updated;
  });
}
