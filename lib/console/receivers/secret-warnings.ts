import 'server-only';
import type { ConnectApi } from '@/lib/console/connect-api';
import type { TReceiver } from '@/lib/console/receivers';
import { findSecretMismatches, type TSecretMismatch } from '@/lib/console/receivers/secret-mismatches';
import type { TEnvironmentName } from '@/lib/console/staff/session';
import { findDeliveringWebhooks, type TDeliveringWebhook } from './find-delivering-webhooks';

// The webhooks delivering to a receiver whose secret the receiver does not hold: after a save of
// its settings (the PATCH route, the settings form) and on its page.

export async function secretWarnings(
  environment: TEnvironmentName,
  api: ConnectApi,
  receiver: TReceiver,
  delivering?: TDeliveringWebhook[],
): Promise<TSecretMismatch[]> {
  const webhooks = delivering ?? (await findDeliveringWebhooks(environment, api, receiver)).webhooks;
  return findSecretMismatches(
    api,
    webhooks.filter((w) => !w.movedAway),
    receiver.secrets,
  );
}
