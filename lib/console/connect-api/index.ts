import 'server-only';

// The console's way to the Giving Connect API: one client per environment (registry.ts), its
// operations and types made from the service's OpenAPI document (client.ts, types.ts).

export { ConnectApi } from './client';
export { ConnectApiError, isUnsupported, type TProblemInfo } from './errors';
export type { TLineStream } from './transport-stream';
export { environments, isEnvironmentName, type TConnectApiConfig, type TEnvironmentInfo, type TEnvironmentName } from './environments';
export { connectApi } from './registry';
export type * from './types';
