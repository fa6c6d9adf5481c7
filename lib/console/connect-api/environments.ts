import { env } from '@/lib/env';

// The services the console can talk to: the sandbox (by default this app's own embedded service)
// and, when PRODUCTION_* are set, production — with its own base URL, auth URL, audience and
// credentials, as the spec says they differ.

export const ENVIRONMENT_NAMES = ['sandbox', 'production'] as const;
export type TEnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

export type TEnvironmentInfo = { name: TEnvironmentName; label: string; baseUrl: string; configured: boolean };

export type TConnectApiConfig = {
  name?: TEnvironmentName;
  baseUrl: string;
  authUrl: string;
  audience: string;
  clientId: string;
  clientSecret: string;
};

export function isEnvironmentName(value: unknown): value is TEnvironmentName {
  return typeof value === 'string' && (ENVIRONMENT_NAMES as readonly string[]).includes(value);
}

/** The config of `name`, or null when it is not (fully) configured. */
export function environmentConfig(name: TEnvironmentName): TConnectApiConfig | null {
  if (name === 'sandbox') {
    return {
      name,
      baseUrl: env.CONNECT_API_BASE_URL,
      authUrl: env.CONNECT_AUTH_URL,
      audience: env.CONNECT_AUDIENCE,
      clientId: env.CONNECT_CLIENT_ID,
      clientSecret: env.CONNECT_CLIENT_SECRET,
    };
  }
  const { PRODUCTION_API_BASE_URL: baseUrl, PRODUCTION_AUTH_URL: authUrl, PRODUCTION_AUDIENCE: audience } = env;
  const { PRODUCTION_CLIENT_ID: clientId, PRODUCTION_CLIENT_SECRET: clientSecret } = env;
  if (!baseUrl || !authUrl || !audience || !clientId || !clientSecret) return null;
  return { name, baseUrl, authUrl, audience, clientId, clientSecret };
}

function productionMentioned(): boolean {
  return Boolean(
    env.PRODUCTION_API_BASE_URL || env.PRODUCTION_AUTH_URL || env.PRODUCTION_AUDIENCE || env.PRODUCTION_CLIENT_ID || env.PRODUCTION_CLIENT_SECRET,
  );
}

/**
 * Sandbox always; production when any PRODUCTION_* is set (configured: false when some are
 * missing, so the UI can say so instead of failing on use).
 */
export function environments(): TEnvironmentInfo[] {
  const list: TEnvironmentInfo[] = [{ name: 'sandbox', label: 'Sandbox', baseUrl: env.CONNECT_API_BASE_URL, configured: true }];
  if (productionMentioned()) {
    list.push({ name: 'production', label: 'Production', baseUrl: env.PRODUCTION_API_BASE_URL ?? '', configured: environmentConfig('production') !== null });
  }
  return list;
}
