import 'server-only';
import { ConnectApi } from './client';
import { ConnectApiError } from './errors';
import { environmentConfig, type TConnectApiConfig, type TEnvironmentName } from './environments';

// The console's API client, one per environment per process (the token cache lives inside).

export { ConnectApi } from './client';
export { ConnectApiError, isUnsupported, type TProblemInfo } from './errors';
export { environments, isEnvironmentName, type TConnectApiConfig, type TEnvironmentInfo, type TEnvironmentName } from './environments';
export type {
  TAccountMessage,
  TAccountMessageSummary,
  TAttempt,
  TConnect,
  TGrant,
  TMessage,
  TMessageDelivery,
  TNonprofit,
  TPage,
  TWebhook,
} from './schemas';

const globalForApi = globalThis as unknown as { __gcConnectApi?: Map<string, ConnectApi> };

function fingerprint(c: TConnectApiConfig): string {
  return [c.baseUrl, c.authUrl, c.audience, c.clientId, c.clientSecret].join('\n');
}

export function connectApi(envName: TEnvironmentName): ConnectApi {
  const config = environmentConfig(envName);
  if (!config) {
    throw new ConnectApiError(`The ${envName} environment is not configured.`, {
      status: 0,
      operation: 'configure',
      problem: { title: 'Not configured', detail: `The ${envName} environment is not configured: set every PRODUCTION_* variable.` },
    });
  }
  const cache = (globalForApi.__gcConnectApi ??= new Map());
  const key = `${envName}\n${fingerprint(config)}`;
  let api = cache.get(key);
  if (!api) {
    api = new ConnectApi(config);
    cache.set(key, api);
  }
  return api;
}
