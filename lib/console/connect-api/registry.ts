import { ConnectApi } from './client';
import { ConnectApiError } from './errors';
import { environmentConfig, missingVariables, type TConnectApiConfig, type TEnvironmentName } from './environments';
import { processSingleton } from '@/lib/process-singleton';

// The console's API client, one per environment per process (the token cache and the
// reachability state live inside). Kept apart from index.ts so the start (lib/boot.ts), outside
// the React server bundles, can use the same clients.

const apis = processSingleton('connect-apis', () => new Map<string, ConnectApi>());

function fingerprint(c: TConnectApiConfig): string {
  return [c.baseUrl, c.authUrl, c.audience, c.clientId, typeof c.clientSecret === 'string' ? c.clientSecret : 'stored'].join('\n');
}

export function connectApi(envName: TEnvironmentName): ConnectApi {
  const config = environmentConfig(envName);
  if (!config) {
    throw new ConnectApiError(`The ${envName} environment is not configured.`, {
      status: 0,
      operation: 'configure',
      problem: { title: 'Not configured', detail: `The ${envName} environment is not configured: set ${missingVariables(envName).join(', ')}.` },
    });
  }
  const cache = apis;
  const key = `${envName}\n${fingerprint(config)}`;
  let api = cache.get(key);
  if (!api) {
    api = new ConnectApi(config);
    cache.set(key, api);
  }
  return api;
}
