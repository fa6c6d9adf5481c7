import { processSingleton } from '@/lib/process-singleton';
import { readSetting } from '../settings';
import { ConnectApiError } from './errors';

// The sandbox client's secret when no setting names one (CONNECT_CLIENT_SECRET, SANDBOX_CLIENT_SECRET):
// the one the first start generated and keeps in console.settings (lib/console/initial-credentials.ts),
// as it keeps the session secret. Every instance on the database reads the same, the delivery
// workers' alert evaluators too; read once per process when found.

export const SANDBOX_SECRET_SETTING = 'sandbox_client_secret';

const found = processSingleton('stored-sandbox-secret', (): { value?: string } => ({}));

/** The stored secret; a ConnectApiError naming the setting when this database holds none (a console-only instance of its own). */
export async function storedSandboxSecret(): Promise<string> {
  if (found.value) return found.value;
  const value = await readSetting(SANDBOX_SECRET_SETTING);
  if (!value) {
    const detail =
      "The sandbox environment has no client secret: set CONNECT_CLIENT_SECRET to the secret of the service's sandbox client (its start banner printed it; it is in its DATA_DIR/initial-credentials).";
    throw new ConnectApiError(detail, { status: 0, operation: 'configure', problem: { title: 'Not configured', detail } });
  }
  found.value = value;
  return value;
}
