import { env } from '@/lib/env';
import { storedSandboxSecret } from './stored-sandbox-secret';

// The services the console can talk to: the sandbox (by default this app's own embedded service)
// and, when PRODUCTION_* are set, production — with its own base URL, auth URL, audience and
// credentials, as the spec says they differ. Base URLs arrive normalised (lib/api-base-url.ts):
// the API's root, without /v1, from which every call and every link is built.

export const ENVIRONMENT_NAMES = ['sandbox', 'production'] as const;
export type TEnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

export type TEnvironmentInfo = { name: TEnvironmentName; label: string; baseUrl: string; configured: boolean };

export type TConnectApiConfig = {
  name?: TEnvironmentName;
  /** The API's root, without /v1. */
  baseUrl: string;
  authUrl: string;
  audience: string;
  clientId: string;
  /** The secret, or where to read it: the sandbox client's secret generated at the first start lives in the database. */
  clientSecret: string | (() => Promise<string>);
};

type TSetting = Exclude<keyof TConnectApiConfig, 'name'>;

/** The variable that sets each part of an environment, to name in a message about it. */
export const ENVIRONMENT_VARIABLES: Record<TEnvironmentName, Record<TSetting, string>> = {
  sandbox: {
    baseUrl: 'CONNECT_API_BASE_URL',
    authUrl: 'CONNECT_AUTH_URL',
    audience: 'CONNECT_API_AUDIENCE',
    clientId: 'CONNECT_CLIENT_ID',
    clientSecret: 'CONNECT_CLIENT_SECRET',
  },
  production: {
    baseUrl: 'PRODUCTION_API_BASE_URL',
    authUrl: 'PRODUCTION_AUTH_URL',
    audience: 'PRODUCTION_AUDIENCE',
    clientId: 'PRODUCTION_CLIENT_ID',
    clientSecret: 'PRODUCTION_CLIENT_SECRET',
  },
};

export function isEnvironmentName(value: unknown): value is TEnvironmentName {
  return typeof value === 'string' && (ENVIRONMENT_NAMES as readonly string[]).includes(value);
}

function productionSettings(): Record<TSetting, string | undefined> {
  return {
    baseUrl: env.PRODUCTION_API_BASE_URL,
    authUrl: env.PRODUCTION_AUTH_URL,
    audience: env.PRODUCTION_AUDIENCE,
    clientId: env.PRODUCTION_CLIENT_ID,
    clientSecret: env.PRODUCTION_CLIENT_SECRET,
  };
}

/** The variables of `name` still to set before it can be used (none for the sandbox, which has defaults). */
export function missingVariables(name: TEnvironmentName): string[] {
  if (name === 'sandbox') return [];
  const settings = productionSettings();
  return (Object.keys(settings) as TSetting[]).filter((k) => !settings[k]).map((k) => ENVIRONMENT_VARIABLES.production[k]);
}

/** The config of `name`, or null when it is not (fully) configured. */
export function environmentConfig(name: TEnvironmentName): TConnectApiConfig | null {
  if (name === 'sandbox') {
    return {
      name,
      baseUrl: env.CONNECT_API_BASE_URL,
      authUrl: env.CONNECT_AUTH_URL,
      audience: env.CONNECT_API_AUDIENCE,
      clientId: env.CONNECT_CLIENT_ID,
      clientSecret: env.CONNECT_CLIENT_SECRET ?? storedSandboxSecret,
    };
  }
  const { baseUrl, authUrl, audience, clientId, clientSecret } = productionSettings();
  if (!baseUrl || !authUrl || !audience || !clientId || !clientSecret) return null;
  return { name, baseUrl, authUrl, audience, clientId, clientSecret };
}

function productionMentioned(): boolean {
  return Object.values(productionSettings()).some(Boolean);
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
