import 'server-only';
import { isUnsupported, type ConnectApi, type TWebhook } from '../connect-api';
import { secretFingerprint } from '../secret-fingerprint';

// A webhook's own settings and its secret's fingerprint, read from the API for the views that
// explain its deliveries (timeline, message, case, health, recover).

/** Get webhook (EXT): null when the service does not offer it; other failures are thrown. */
export async function webhookSettings(api: ConnectApi, webhookId: string): Promise<TWebhook | null> {
  try {
    return await api.get('/v1/webhooks/{id}', { params: { path: { id: webhookId } } });
  } catch (err) {
    if (isUnsupported(err)) return null;
    throw err;
  }
}

/** The fingerprint of the webhook's secret (EXT), for explaining a failed signature check; null when unknown. */
export async function webhookSecretFingerprint(api: ConnectApi, webhookId: string): Promise<string | null> {
  return api.get('/v1/webhooks/{id}/secret', { params: { path: { id: webhookId } } }).then(
    (s) => secretFingerprint(s.key),
    () => null,
  );
}
