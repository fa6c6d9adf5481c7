import type { TApp } from './app';

// The split setup an operator makes: a console-only instance configured from a service
// instance's start banner — its API base URL exactly as printed, and a client's credentials.

function bannerValue(service: TApp, label: string): string {
  const printed = new RegExp(`^\\s+${label}\\s+(\\S+)`, 'm').exec(service.logs())?.[1];
  if (!printed) throw new Error(`no ${label} in the banner:\n${service.logs()}`);
  return printed;
}

/** The "API base URL" line of `service`'s start banner, as printed. */
export function bannerApiBaseUrl(service: TApp): string {
  return bannerValue(service, 'API base URL');
}

/** The sandbox client's credentials as `service`'s start banner prints them. */
export function bannerCredentials(service: TApp): { client_id: string; client_secret: string } {
  return { client_id: bannerValue(service, 'client_id'), client_secret: bannerValue(service, 'client_secret') };
}

/** A console-only instance's settings against `service`: SERVICE_MODE=off, the banner's base URL, the credentials; nothing else. */
export function consoleOnlyEnv(service: TApp, credentials = bannerCredentials(service)): Record<string, string> {
  return {
    SERVICE_MODE: 'off',
    CONNECT_API_BASE_URL: bannerApiBaseUrl(service),
    CONNECT_CLIENT_ID: credentials.client_id,
    CONNECT_CLIENT_SECRET: credentials.client_secret,
  };
}
